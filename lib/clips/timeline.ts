import { dvrSegments } from "@/lib/live/dvr";
import { recordedSegments } from "@/lib/live/playback";

/** A stored segment of a session placed on the wall clock (Unix ms). */
export interface TimedSegment {
  key: string;
  startedAt: number;
  duration: number;
}

export interface Timeline {
  kind: "dvr" | "recording";
  segments: TimedSegment[];
  start: number;
  end: number;
}

/** Players' times are a frame or so off the segments' own: this much before the first is taken as its start. */
export const EDGE_TOLERANCE_MS = 100;

function timeline(kind: Timeline["kind"], segments: TimedSegment[]): Timeline | undefined {
  if (!segments.length) return undefined;
  const last = segments[segments.length - 1];
  return { kind, segments, start: segments[0].startedAt, end: last.startedAt + last.duration * 1000 };
}

/**
 * What a session's media can be clipped from: its DVR (the source rendition's last
 * LIVE_DVR_WINDOW_S, recorded or not) and, when recorded, the whole recording.
 * Recording segments from nodes that did not give their start are laid end to end
 * from the session's start.
 */
export async function sessionTimelines(session: { id: string; createdAt: number }) {
  const [dvr, recorded] = await Promise.all([dvrSegments(session.id), recordedSegments(session.id)]);
  let at = session.createdAt;
  const recording = recorded.map((s) => {
    const startedAt = s.startedAt ?? at;
    at = startedAt + s.duration * 1000;
    return { key: s.key, startedAt, duration: s.duration };
  });
  return {
    dvr: timeline("dvr", dvr.map((s) => ({ key: s.key, startedAt: s.startedAt, duration: s.duration }))),
    recording: timeline("recording", recording),
  };
}

/**
 * What to cut [from, …) from: while live, the DVR (its source rendition is what viewers
 * see, its times are the live playlist's), once ended the recording (what the recording's
 * viewers see); the other when the first does not reach back to `from`.
 */
export function timelineFor(timelines: Awaited<ReturnType<typeof sessionTimelines>>, from: number, live: boolean): Timeline | undefined {
  const reaches = (t?: Timeline) => t && t.start <= from + EDGE_TOLERANCE_MS;
  const order = live ? [timelines.dvr, timelines.recording] : [timelines.recording, timelines.dvr];
  return order.find(reaches);
}

/** The segments that hold [from, to). */
export function segmentsBetween(t: Timeline, from: number, to: number): TimedSegment[] {
  return t.segments.filter((s) => s.startedAt + s.duration * 1000 > from && s.startedAt < to);
}
