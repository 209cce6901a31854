// biome-ignore-all format: a table, one entry per line, read down its columns
import { z } from "zod";
import { MEDIA_OBJECT_KEY, MEDIA_PREFIX } from "@/lib/live/keys";

/**
 * The media node <-> app protocol (the internal media API under /api/internal/media, authenticated
 * with the deployment's MEDIA_SECRET): every message's schema and every operation, declared once.
 * Node end: media-node/app-client.ts (publish checks, heartbeats, session events, node beats,
 * media through the app). App end: app/api/internal/media/<operation>/route.ts, bound to these
 * declarations (lib/api/operations.ts lists them with the rest), answered by lib/live/ingest.ts
 * and lib/live/nodes.ts. Both ends import this module; nothing here reaches the database.
 */
/** How an encoder reached a node: RTMP, or WebRTC (WHIP: the node then forwards it to WHEP viewers). */
export const IngestProtocol = z.enum(["rtmp", "webrtc"]);
export type IngestProtocol = z.infer<typeof IngestProtocol>;

export const PublishRequest = z.object({ streamKey: z.string().min(1).max(200), nodeId: z.string().min(1), protocol: IngestProtocol.optional() });

export const LiveTarget = z.object({ id: z.string(), name: z.string(), url: z.string(), profile: z.string(), videoOnly: z.boolean() });
export type LiveTarget = z.infer<typeof LiveTarget>;

export const PublishGrant = z.object({
  sessionId: z.string(),
  /**
   * The node's fencing token for this session: its media goes under live/<session>/<epoch>/ and
   * recordings/<session>/<epoch>/, and the app takes its reports only while the epoch is current.
   */
  epoch: z.number().int().min(1),
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
  lagS: z
    .number()
    .min(0)
    .optional()
    .describe("Castline addition: how far the live output (the newest segment) trails what the encoder sent, in seconds of media"),
  droppedRenditions: z
    .array(z.string().max(64))
    .max(8)
    .optional()
    .describe("Castline addition: renditions not transcoded now because the media node could not keep up in real time (the source always plays)"),
  updatedAt: z.number(),
});
export type IngestHealth = z.infer<typeof IngestHealth>;

/**
 * The lag past which a live output is behind (unless it is catching up quickly): two segments,
 * at least 4 s. The node drops renditions past it; the app shows it as a health issue.
 */
export const lagLimitS = (segmentS: number) => Math.max(2 * segmentS, 4);

/**
 * What a node has stored of a session's live output in its epoch: totals since the epoch began,
 * not increments, so a report that is late, repeated or lost (a busy app, a timeout) neither
 * counts twice nor loses anything: the next one, or the end, carries all of it.
 */
export const SegmentCounters = z.object({
  sourceSegments: z.number().int().min(0),
  transcodedSegments: z.number().int().min(0),
  sourceSegmentsDuration: z.number().min(0),
  transcodedSegmentsDuration: z.number().min(0),
});
export type SegmentCounters = z.infer<typeof SegmentCounters>;

/** Sent every second while live (and while the ladder drains after the publisher left). */
export const Heartbeat = z.object({
  sessionId: z.string(),
  epoch: z.number().int(),
  ...SegmentCounters.shape,
  health: IngestHealth.optional(),
});
export type Heartbeat = z.infer<typeof Heartbeat>;

/** What the app answers a heartbeat: stop the broadcast (suspended, deleted or its key rotated), and the current targets. */
export const HeartbeatReply = z.object({ stop: z.boolean(), targets: z.array(LiveTarget) });
export type HeartbeatReply = z.infer<typeof HeartbeatReply>;

const ofSession = { sessionId: z.string(), epoch: z.number().int() };

export const MultistreamPushState = z.enum(["connecting", "connected", "error", "disconnected"]);
export type MultistreamPushState = z.infer<typeof MultistreamPushState>;

/** What a node reports of a session it runs; refused (409) once its epoch is no longer current. */
export const SessionEvent = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ready"), ...ofSession }),
  /** A segment of the recording is in the store: recordings/<session>/<epoch>/<file>. */
  z.object({
    kind: z.literal("recorded"),
    ...ofSession,
    seq: z.number().int().min(0),
    file: z.string().regex(/^seg_\d{5,}\.ts$/),
    duration: z.number().min(0).max(600),
    size: z.number().int().min(0),
    /** Wall-clock start (Unix ms), for clips of the recording. */
    startedAt: z.number().int().optional(),
  }),
  /** A segment of the source rendition is in the store (live/<session>/<epoch>/v0/<file>): the DVR clips are cut from. */
  z.object({
    kind: z.literal("live-segment"),
    ...ofSession,
    seq: z.number().int().min(0),
    file: z.string().regex(/^seg_\d{5,}\.ts$/),
    duration: z.number().min(0).max(600),
    startedAt: z.number().int(),
  }),
  /** The broadcast ended on this node: with the epoch's final counters (none when it never started). */
  z.object({ kind: z.literal("ended"), ...ofSession, counters: SegmentCounters.optional() }),
  /**
   * A multistream target's push changed state: an attempt started (connecting), it sends
   * (connected), it failed (error, with the next attempt in `retryInMs`), or it stopped
   * (disconnected). `seq` orders one epoch's reports (they may arrive out of order); nodes
   * before it sent only connected, error and disconnected.
   */
  z.object({
    kind: z.literal("multistream"),
    ...ofSession,
    targetId: z.string(),
    state: MultistreamPushState,
    error: z.string().optional(),
    retryInMs: z.number().int().min(0).max(3_600_000).optional(),
    seq: z.number().int().min(0).optional(),
  }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;

/** A media node's registration and heartbeat (every NODE_HEARTBEAT_MS). */
export const NodeBeat = z.object({
  nodeId: z.string().min(1).max(200),
  /** The RTMP URL encoders use for this node, when it has its own public host (MEDIA_PUBLIC_HOST). */
  ingestUrl: z.string().regex(/^rtmps?:\/\//).max(500).optional(),
  rtmpPort: z.number().int().min(1).max(65535),
  /** Where app instances hand it WebRTC publishes (its WHIP signalling, authenticated with MEDIA_SECRET). */
  webrtcUrl: z.url({ protocol: /^https?$/ }).max(500).optional(),
  cores: z.number().int().min(1).max(4096),
  cpuLoad: z.number().min(0).max(1000),
  liveSessions: z.number().int().min(0),
  /** Live sessions whose output fell behind real time (renditions dropped, or trailing the encoder). */
  laggingSessions: z.number().int().min(0).optional(),
  /** The machine it runs on (lib/av/machine.ts), shared with the job workers there. */
  machine: z.string().min(1).max(200).optional(),
  startedAt: z.number().int(),
  /** Its last beat: it is shutting down (after ending its broadcasts) and leaves the registry. */
  leaving: z.boolean().optional(),
});
export type NodeBeat = z.infer<typeof NodeBeat>;

/** `lost`: the app declared the node lost meanwhile; its broadcasts belong to nobody now and must stop. */
export const NodeBeatReply = z.object({ lost: z.boolean() });
export type NodeBeatReply = z.infer<typeof NodeBeatReply>;

export const NODE_HEARTBEAT_MS = 2000;

/** The protocol's operations, spread into lib/api/operations.ts (checked there as every operation is). */
export const mediaNodeOperations = {
  authorizePublish: { method: "POST", path: "/internal/media/publish", tag: "Media nodes", summary: "May this stream key publish? 403 says why not", auth: "media", body: PublishRequest, status: 200, response: PublishGrant, errors: [403, 422], internal: true },
  mediaHeartbeat: { method: "POST", path: "/internal/media/heartbeat", tag: "Media nodes", summary: "A live session's counters (its epoch's totals so far) and health; answers its targets and whether to stop", auth: "media", body: Heartbeat, status: 200, response: HeartbeatReply, errors: [422], internal: true },
  mediaEvent: { method: "POST", path: "/internal/media/event", tag: "Media nodes", summary: "A session became ready, stored a source (DVR) or recording segment, ended, or a multistream target changed state; 409 once the node's epoch is not current (fenced)", auth: "media", body: SessionEvent, status: 204, errors: [409, 422], internal: true },
  mediaNodeBeat: { method: "POST", path: "/internal/media/node", tag: "Media nodes", summary: "A media node registers and heartbeats (every 2 s)", auth: "media", body: NodeBeat, status: 200, response: NodeBeatReply, errors: [422], internal: true },
  storeMediaObject: { method: "PUT", path: "/internal/media/object", tag: "Media nodes", summary: "A node without direct access to the bucket stores a live HLS file, live thumbnail or recording segment through the app", auth: "media", query: z.object({ key: z.string().regex(MEDIA_OBJECT_KEY, "not a live media key") }), status: 204, errors: [422], raw: "the file's bytes", internal: true },
  removeMediaObjects: { method: "DELETE", path: "/internal/media/object", tag: "Media nodes", summary: "Remove a finished broadcast's live renditions", auth: "media", query: z.object({ prefix: z.string().regex(MEDIA_PREFIX, "not a live media folder") }), status: 204, errors: [422], internal: true },
} as const;
