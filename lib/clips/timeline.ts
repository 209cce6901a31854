import { inArray, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { liveSegments, recordingSegments } from "@/db/schema";
import { config } from "@/lib/config";
import { dvrSegments } from "@/lib/live/dvr";
import { recordedSegments } from "@/lib/live/playback";

/**
 * A session's media on its own timeline: Unix ms as its playlists' EXT-X-PROGRAM-DATE-TIME
 * show them (what players show, and what clips are asked in). It is the transcoder's clock
 * at its start plus the media received since, so it runs behind the wall clock whenever
 * the media came slower than real time (a busy machine, a congested uplink): clips are
 * placed on it, never on the wall clock.
 */

/** A stored segment of a session on its media timeline. */
export interface TimedSegment {
  key: string;
  startedAt: number;
  duration: number;
}

export type TimelineKind = "dvr" | "recording";

/** Where one kind of a session's media starts and ends. */
export interface TimelineRange {
  kind: TimelineKind;
  start: number;
  end: number;
}

export interface Timeline extends TimelineRange {
  segments: TimedSegment[];
}

export type TimelineRanges = Partial<Record<TimelineKind, TimelineRange>>;

/** Players' times are a frame or so off the segments' own: this much before the first is taken as its start. */
export const EDGE_TOLERANCE_MS = 100;

/**
 * How long a live clip's job waits for the media of its last seconds to be stored, and so
 * how far past the live edge a live clip may end: the segment being written and a little
 * more, not media that may never come.
 */
export const liveEdgeWaitMs = () => config().HLS_SEGMENT_S * 3000 + 10_000;

function timeline(kind: TimelineKind, segments: TimedSegment[]): Timeline | undefined {
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
    dvr: timeline(
      "dvr",
      dvr.map((s) => ({ key: s.key, startedAt: s.startedAt, duration: s.duration })),
    ),
    recording: timeline("recording", recording),
  };
}

/**
 * The ranges of sessionTimelines for many sessions at once, without their segments
 * (two grouped queries). A recording whose node gave no starts is laid from the
 * session's start, as sessionTimelines lays it.
 */
export async function timelineRanges(sessions: { id: string; createdAt: number }[]): Promise<Map<string, TimelineRanges>> {
  const ranges = new Map<string, TimelineRanges>(sessions.map((s) => [s.id, {}]));
  if (!sessions.length) return ranges;
  const ids = sessions.map((s) => s.id);
  const [dvr, recording] = await Promise.all([
    db()
      .select({
        sessionId: liveSegments.sessionId,
        start: sql<number>`min(${liveSegments.startedAt})`.mapWith(Number),
        end: sql<number>`max(${liveSegments.startedAt} + ${liveSegments.duration} * 1000)`.mapWith(Number),
      })
      .from(liveSegments)
      .where(inArray(liveSegments.sessionId, ids))
      .groupBy(liveSegments.sessionId),
    db()
      .select({
        sessionId: recordingSegments.sessionId,
        start: sql<number | null>`min(${recordingSegments.startedAt})`,
        end: sql<number | null>`max(${recordingSegments.startedAt} + ${recordingSegments.duration} * 1000)`,
        duration: sql<number>`sum(${recordingSegments.duration})`.mapWith(Number),
      })
      .from(recordingSegments)
      .where(inArray(recordingSegments.sessionId, ids))
      .groupBy(recordingSegments.sessionId),
  ]);
  for (const r of dvr) ranges.get(r.sessionId)!.dvr = { kind: "dvr", start: r.start, end: r.end };
  const createdAt = new Map(sessions.map((s) => [s.id, s.createdAt]));
  for (const r of recording) {
    const laidFrom = createdAt.get(r.sessionId)!;
    ranges.get(r.sessionId)!.recording =
      r.start === null || r.end === null
        ? { kind: "recording", start: laidFrom, end: laidFrom + r.duration * 1000 }
        : { kind: "recording", start: Number(r.start), end: Number(r.end) };
  }
  return ranges;
}

/**
 * The media a clip prefers: while live the DVR (its source rendition is what viewers see,
 * its times are the live playlist's), once ended the recording (what its viewers see).
 */
const preference = (live: boolean): TimelineKind[] => (live ? ["dvr", "recording"] : ["recording", "dvr"]);

/** What to cut [from, …) from: the preferred media, or the other when the first does not reach back to `from`. */
export function timelineFor<T extends TimelineRange>(timelines: Partial<Record<TimelineKind, T>>, from: number, live: boolean): T | undefined {
  return preference(live)
    .map((kind) => timelines[kind])
    .find((t) => t && t.start <= from + EDGE_TOLERANCE_MS);
}

/**
 * What a clip of the session can take now, on its media timeline: from the oldest media
 * kept to the end of the preferred media (while live, its live edge). "The last 30 s" is
 * the 30 s before `endTime`.
 */
export function clippableRange(timelines: TimelineRanges, live: boolean): { startTime: number; endTime: number } | undefined {
  const kept = preference(live).flatMap((kind) => timelines[kind] ?? []);
  if (!kept.length) return undefined;
  // Whole ms, as POST /clip takes them, inside what is kept.
  return { startTime: Math.ceil(Math.min(...kept.map((t) => t.start))), endTime: Math.floor(kept[0].end) };
}

/** The segments that hold [from, to). */
export function segmentsBetween(t: Timeline, from: number, to: number): TimedSegment[] {
  return t.segments.filter((s) => s.startedAt + s.duration * 1000 > from && s.startedAt < to);
}
