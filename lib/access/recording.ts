import type { GatedContent } from "./gate";
import type { PlaybackPolicy } from "./schema";

/** What decides who may watch a session's recording. */
export interface RecordingFacts {
  sessionId: string;
  /** The broadcast is on: its recording grows as the live stream plays, under the stream's policy. */
  live: boolean;
  /** The stream's policy when the broadcast last ended (sessions.playback_policy). */
  endedUnder: PlaybackPolicy | null;
  stream: { playbackId: string; userId: string; playbackPolicy: PlaybackPolicy | null };
  /** The asset the recording became, once it did. */
  asset?: { playbackId: string; playbackPolicy: PlaybackPolicy | null };
}

/**
 * A recording as the gate sees it, on every path that serves it (/recordings/<session>/...): one
 * content, one policy. Its asset's policy once it has an asset (the same recording at
 * /asset/<playbackId>/..., whose policy the owner may change); before that, the live stream's while
 * the broadcast is on, and from its end (the reconnect window, processing) the policy the broadcast
 * ended under, which the asset then inherits. Never the stream's policy of later: a stream made
 * public after a private broadcast does not open that broadcast's recording.
 * A viewer's JWT may name the asset's playback id or the stream's (the only one before the asset
 * exists); the playback tokens its URLs carry are its own, not the live stream's or the asset's.
 */
export function recordingContent({ sessionId, live, endedUnder, stream, asset }: RecordingFacts): GatedContent {
  return {
    playbackId: asset?.playbackId ?? stream.playbackId,
    ...(asset ? { otherPlaybackIds: [stream.playbackId] } : {}),
    tokenSubject: `recording:${sessionId}`,
    userId: stream.userId,
    playbackPolicy: asset ? asset.playbackPolicy : live ? stream.playbackPolicy : endedUnder,
  };
}
