import { z } from "zod";

/** Messages between media nodes and the app (the internal media API). One schema each. */
export const PublishRequest = z.object({ streamKey: z.string().min(1).max(200), nodeId: z.string().min(1) });

export const LiveTarget = z.object({ id: z.string(), name: z.string(), url: z.string(), profile: z.string(), videoOnly: z.boolean() });
export type LiveTarget = z.infer<typeof LiveTarget>;

export const PublishGrant = z.object({
  sessionId: z.string(),
  streamId: z.string(),
  playbackId: z.string(),
  record: z.boolean(),
  /** A reconnect within the recording window continues this session and its recording. */
  resumed: z.boolean(),
  profiles: z.array(z.object({ name: z.string(), width: z.number(), height: z.number(), bitrate: z.number(), fps: z.number() })),
  targets: z.array(LiveTarget),
});
export type PublishGrant = z.infer<typeof PublishGrant>;

export const IngestHealth = z.object({
  bitrateKbps: z.number().optional(),
  fps: z.number().optional(),
  keyframeIntervalS: z.number().optional(),
  updatedAt: z.number(),
});
export type IngestHealth = z.infer<typeof IngestHealth>;

/** Sent every second while live; counters are increments since the previous heartbeat. */
export const Heartbeat = z.object({
  sessionId: z.string(),
  sourceSegments: z.number().int().min(0),
  transcodedSegments: z.number().int().min(0),
  sourceSegmentsDuration: z.number().min(0),
  transcodedSegmentsDuration: z.number().min(0),
  health: IngestHealth.optional(),
});
export type Heartbeat = z.infer<typeof Heartbeat>;

/** What the app answers a heartbeat: stop the broadcast (suspended or deleted), and the current targets. */
export const HeartbeatReply = z.object({ stop: z.boolean(), targets: z.array(LiveTarget) });
export type HeartbeatReply = z.infer<typeof HeartbeatReply>;

export const SessionEvent = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ready"), sessionId: z.string() }),
  z.object({ kind: z.literal("ended"), sessionId: z.string(), recordingPath: z.string().optional() }),
  z.object({ kind: z.literal("multistream"), sessionId: z.string(), targetId: z.string(), state: z.enum(["connected", "error", "disconnected"]), error: z.string().optional() }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
