import { sql } from "drizzle-orm";
import type { IngestHealth, SegmentCounters } from "@/lib/media-node-protocol";
import type { PlaybackPolicy } from "@/lib/access/schema";
import type { AssetSource, AssetStorage, AssetStorageStatus, Hash, TranscodeProfile, VideoSpec } from "@/lib/assets/schema";
import type { Profile, TargetRef } from "@/lib/streams/schema";
import type { Task } from "@/lib/tasks/schema";
import type { WebhookFailure } from "@/lib/webhooks/schema";
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, text, uuid } from "drizzle-orm/pg-core";

/** Timestamps are milliseconds since the epoch, as the API shows them. */
const ms = (name: string) => bigint(name, { mode: "number" });
const createdAt = () => ms("created_at").notNull();

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name"),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
  /**
   * Raised to end every dashboard session of the account at once (a password reset): a
   * session cookie names the version it was issued under and is refused under another.
   */
  sessionVersion: integer("session_version").notNull().default(0),
  /** "admin": an operator of the deployment (set with the CLI), who also sees the media nodes. */
  role: text("role", { enum: ["user", "admin"] })
    .notNull()
    .default("user"),
});

/**
 * Dashboard sessions ended by signing out, until the last copy of their cookie would have
 * expired anyway (a JWT cookie holds no server state to delete).
 */
export const endedSessions = pgTable(
  "ended_sessions",
  {
    /** The session's id (its JWT's `sid` claim, the same through every re-issue of the cookie). */
    id: text("id").primaryKey(),
    expiresAt: ms("expires_at").notNull(),
  },
  (t) => [index("ended_sessions_expires_idx").on(t.expiresAt)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** sha256 of the key: keys carry 192 random bits, so a fast hash is enough. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the key, shown in lists to tell keys apart. */
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ms("last_used_at"),
    /** Browser origins that may use the key (CORS-enabled key), for the few operations a web page may call; null: none. */
    allowedOrigins: text("allowed_origins").array(),
  },
  (t) => [index("api_keys_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Fixed-window request counters shared by every app instance (lib/rate-limits): one row per
 * limit and subject (hashed IP, email or API key id), reset when a later window's hit arrives.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  /** Start of the counted window, ms since the epoch (aligned to the window's length). */
  windowStart: ms("window_start").notNull(),
  hits: integer("hits").notNull(),
});

/** Live-ingest counters shared by streams and sessions. */
const segmentCounters = () => ({
  sourceSegments: integer("source_segments").notNull().default(0),
  transcodedSegments: integer("transcoded_segments").notNull().default(0),
  sourceSegmentsDuration: doublePrecision("source_segments_duration").notNull().default(0),
  transcodedSegmentsDuration: doublePrecision("transcoded_segments_duration").notNull().default(0),
});

export const streams = pgTable(
  "streams",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    streamKey: text("stream_key").notNull().unique(),
    /** Raised each time the stream key is rotated: a broadcast published under an older one is cut. */
    keyGeneration: integer("key_generation").notNull().default(0),
    playbackId: text("playback_id").notNull().unique(),
    profiles: jsonb("profiles").$type<Profile[]>().notNull().default(sql`'[]'::jsonb`),
    record: boolean("record").notNull().default(false),
    suspended: boolean("suspended").notNull().default(false),
    isActive: boolean("is_active").notNull().default(false),
    lastSeen: ms("last_seen"),
    multistreamTargets: jsonb("multistream_targets").$type<TargetRef[]>().notNull().default(sql`'[]'::jsonb`),
    /** Who may watch (live and recordings); null: anyone with the playback id. */
    playbackPolicy: jsonb("playback_policy").$type<PlaybackPolicy>(),
    /** Seconds a recorded broadcast waits for its encoder to reconnect; null: the deployment's RECORDING_RECONNECT_WINDOW_S. */
    reconnectWindow: integer("reconnect_window"),
    ...segmentCounters(),
    /** Ingest health of the current broadcast, from the media node's heartbeats. */
    health: jsonb("health").$type<IngestHealth>(),
    createdAt: createdAt(),
    /** Deleted streams stay for their sessions' recordings, hidden from the API. */
    deletedAt: ms("deleted_at"),
  },
  (t) => [
    index("streams_user_idx").on(t.userId, t.createdAt, t.id),
    // Lists sorted by last seen (never seen: 0, the oldest), paged by (key, id).
    index("streams_user_last_seen_idx").on(t.userId, sql`coalesce(${t.lastSeen}, 0)`, t.id),
    // Name search is a case-insensitive substring (ILIKE '%…%'): trigrams serve it.
    index("streams_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    parentId: text("parent_id")
      .notNull()
      .references(() => streams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    record: boolean("record").notNull(),
    profiles: jsonb("profiles").$type<Profile[]>().notNull().default(sql`'[]'::jsonb`),
    isActive: boolean("is_active").notNull().default(false),
    lastSeen: ms("last_seen"),
    ...segmentCounters(),
    /** "waiting" (playable as HLS, a reconnect may continue it), then "ready" (an asset, and an MP4). */
    recordingStatus: text("recording_status"),
    assetId: text("asset_id"),
    /**
     * The stream's playback policy when the broadcast last ended (null: public): what its
     * recording is watched under until it becomes an asset, which inherits it.
     */
    playbackPolicy: jsonb("playback_policy").$type<PlaybackPolicy>(),
    /**
     * The reconnect window (seconds) its stream had when it started: how long after its end a
     * publish continues it. Null only on sessions older than the setting (the deployment's default).
     */
    reconnectWindow: integer("reconnect_window"),
    /** When its HLS playlist first worked (stream.started). */
    readyAt: ms("ready_at"),
    mediaNodeId: text("media_node_id"),
    /** How its encoder reached the node: "rtmp", or "webrtc" (WHIP; viewers may then watch over WHEP). */
    ingestProtocol: text("ingest_protocol"),
    /**
     * The fencing token of the node that runs the session: raised each time a node takes it
     * (a publish, a reconnect). A node may only write under, and report for, its own epoch.
     */
    epoch: integer("epoch").notNull().default(0),
    /** The stream's key generation its current epoch was published with (streams.keyGeneration). */
    keyGeneration: integer("key_generation").notNull().default(0),
    /**
     * The segment counters of the current epoch as its node last reported them (totals since the
     * epoch began), already added to the session's: null when a new epoch starts.
     */
    epochCounters: jsonb("epoch_counters").$type<SegmentCounters>(),
    /** Why the session ended: "publisher-left", "node-lost". */
    endReason: text("end_reason"),
    createdAt: createdAt(),
    endedAt: ms("ended_at"),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId, t.createdAt, t.id),
    index("sessions_parent_idx").on(t.parentId, t.createdAt, t.id),
    index("sessions_user_last_seen_idx").on(t.userId, sql`coalesce(${t.lastSeen}, 0)`, t.id),
  ],
);

/**
 * The recording of a session, one row per segment stored (recordings/<session>/<epoch>/<file>),
 * written as the media node stores each: the recording's playlist is built from them, so a
 * session continued on another node (a higher epoch) is one recording.
 */
export const recordingSegments = pgTable(
  "recording_segments",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    epoch: integer("epoch").notNull(),
    seq: integer("seq").notNull(),
    file: text("file").notNull(),
    duration: doublePrecision("duration").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** Wall-clock start (the recorder's EXT-X-PROGRAM-DATE-TIME), for clips; null from nodes that did not say. */
    startedAt: ms("started_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.epoch, t.seq] })],
);

/**
 * How many viewers each app instance (or edge) sees pulling a live stream now
 * (lib/delivery/viewers.ts), as it last reported it: a stream's count is the sum of the rows
 * reported within VIEWERS_FRESH_MS (lib/live/viewers.ts). Rows of an instance that stopped
 * reporting are left out, then removed.
 */
export const liveViewers = pgTable(
  "live_viewers",
  {
    streamId: text("stream_id")
      .notNull()
      .references(() => streams.id, { onDelete: "cascade" }),
    /** A random id each process takes as it starts. */
    instance: text("instance").notNull(),
    viewers: integer("viewers").notNull(),
    reportedAt: ms("reported_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.instance] })],
);

/**
 * The DVR of every live session, recorded or not: the source rendition's segments
 * (live/<session>/<epoch>/v0/<file>) with their wall-clock start (the transcoder's
 * EXT-X-PROGRAM-DATE-TIME, what players show as the time), one row per segment the
 * media node stored and reported. Clips of live streams are cut from them. The app
 * deletes (rows and objects) those that fell out of LIVE_DVR_WINDOW_S as new ones
 * come, and after the session ended, the rest once that window has passed too.
 */
export const liveSegments = pgTable(
  "live_segments",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    epoch: integer("epoch").notNull(),
    seq: integer("seq").notNull(),
    file: text("file").notNull(),
    duration: doublePrecision("duration").notNull(),
    startedAt: ms("started_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.epoch, t.seq] }), index("live_segments_start_idx").on(t.sessionId, t.startedAt)],
);

/**
 * The ingest health of a session over its broadcast, from the media node's heartbeats
 * (about one a second) folded into one row per time bucket: the mean bitrate, the lowest
 * frame rate and the longest keyframe interval seen in it (a drop or a late keyframe is
 * what the creator must see), and how far the live output trailed the encoder and which
 * renditions were dropped to keep it live. Buckets widen as a broadcast goes on (lib/sessions/health.ts),
 * so a long broadcast keeps a bounded number of rows. Kept after the broadcast ends.
 */
export const sessionHealthSamples = pgTable(
  "session_health_samples",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** Start of the bucket, ms since the epoch. */
    at: ms("at").notNull(),
    /** How many heartbeats were folded in. */
    beats: integer("beats").notNull(),
    bitrateKbps: real("bitrate_kbps"),
    fps: real("fps"),
    keyframeIntervalS: real("keyframe_interval_s"),
    /** The longest the live output trailed what the encoder sent (s). */
    lagS: real("lag_s"),
    /** Renditions the media node had dropped because it could not keep up (names). */
    droppedRenditions: text("dropped_renditions").array(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.at] })],
);

/** Media nodes that registered with the app, kept up to date by their heartbeats. */
export const mediaNodes = pgTable("media_nodes", {
  id: text("id").primaryKey(),
  /** The RTMP URL encoders use (…/live); null: the app's public host on rtmpPort. */
  ingestUrl: text("ingest_url"),
  rtmpPort: integer("rtmp_port").notNull(),
  /** Where app instances hand it WebRTC publishes (WHIP signalling, authenticated with MEDIA_SECRET); null: it takes none. */
  webrtcUrl: text("webrtc_url"),
  cores: integer("cores").notNull(),
  /** Load average over one minute divided by cores: 1 is a full node. */
  cpuLoad: real("cpu_load").notNull(),
  liveSessions: integer("live_sessions").notNull(),
  /** Live sessions whose output fell behind real time (renditions dropped, or trailing the encoder). */
  laggingSessions: integer("lagging_sessions").notNull().default(0),
  /** It cannot take more broadcasts without them falling behind (lib/live/nodes.ts isOverloaded). */
  overloaded: boolean("overloaded").notNull().default(false),
  /** The machine it runs on (lib/av/machine.ts): job workers there run fewer transcodes while it is live. */
  machine: text("machine"),
  startedAt: ms("started_at").notNull(),
  lastHeartbeatAt: ms("last_heartbeat_at").notNull(),
  /** Set when it missed heartbeats for NODE_LOST_AFTER_S: its sessions were ended. */
  lostAt: ms("lost_at"),
});

export const multistreamTargets = pgTable(
  "multistream_targets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    disabled: boolean("disabled").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("targets_user_idx").on(t.userId, t.createdAt, t.id)],
);

/**
 * What each multistream target of a live session is doing, as its media node last reported
 * (one row per session and target, replaced by newer reports; removed when the session ends).
 * `epoch` and `seq` order the reports: a node's reports may arrive out of order, and a node
 * that lost the session must not overwrite the one that holds it.
 */
export const multistreamStates = pgTable(
  "multistream_states",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    targetId: text("target_id")
      .notNull()
      .references(() => multistreamTargets.id, { onDelete: "cascade" }),
    epoch: integer("epoch").notNull(),
    /** The report's place among its node's reports for this epoch; null from nodes that did not say. */
    seq: integer("seq"),
    /** "connecting", "connected", "error", "retrying", "disconnected". */
    state: text("state").notNull(),
    /** ffmpeg's or the node's words, with the target's secrets removed. */
    error: text("error"),
    /** When the next attempt starts (state "retrying"). */
    retryAt: ms("retry_at"),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.targetId] })],
);

/** Where an asset's media lives: keys in the object store (lib/storage), never shown as is. */
export interface AssetFilesRow {
  /** The original file, as uploaded: served as the download. */
  source?: string;
  /**
   * The original's H.264/AAC transcode (an MP4, upright, SDR), when browsers cannot play
   * the original as it is: what the HLS source, the ladder, thumbnails and clips are made from.
   */
  transcoded?: { key: string; width: number; height: number; bitrate: number };
  /** Folder of the HLS packaging: <hls>/index.m3u8 and its segments. */
  hls?: string;
  /**
   * The remux's media playlist (<hls>/source.m3u8). Set: <hls>/index.m3u8 is a master the app
   * builds from the asset's renditions. Unset (assets made before renditions): it is the remux.
   */
  hlsSource?: string;
  thumbnail?: string;
  /** The seek-preview track: a WebVTT file naming tiles of sprite sheets beside it. */
  thumbnailsVtt?: string;
}

/** What the asset's renditions were asked to be (request-upload, import); none: the default ladder. */
export interface AssetTranscodeRow {
  profiles?: TranscodeProfile[];
  staticMp4?: boolean;
  /** The transcode-file task, once the ladder is planned. */
  taskId?: string;
}

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    sharedSecret: text("shared_secret").notNull(),
    createdAt: createdAt(),
    lastTriggeredAt: ms("last_triggered_at"),
    lastFailure: jsonb("last_failure").$type<WebhookFailure>(),
  },
  (t) => [index("webhooks_user_idx").on(t.userId, t.createdAt, t.id)],
);

/** One row per delivery attempt, so users can see every try. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    url: text("url").notNull(),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull(),
    requestBody: text("request_body").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    durationMs: real("duration_ms").notNull(),
    success: boolean("success").notNull(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("deliveries_webhook_idx").on(t.webhookId, t.createdAt, t.id)],
);

export const assets = pgTable(
  "assets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    playbackId: text("playback_id").notNull().unique(),
    phase: text("phase").notNull(),
    progress: real("progress"),
    errorMessage: text("error_message"),
    updatedAt: ms("updated_at").notNull(),
    size: bigint("size", { mode: "number" }),
    hash: jsonb("hash").$type<Hash[]>(),
    videoSpec: jsonb("video_spec").$type<VideoSpec>(),
    source: jsonb("source").$type<AssetSource>().notNull(),
    storage: jsonb("storage").$type<AssetStorage>(),
    /** status.storage in the API: where exports stand (IPFS: the last task and its CIDs). */
    storageStatus: jsonb("storage_status").$type<AssetStorageStatus>(),
    files: jsonb("files").$type<AssetFilesRow>(),
    transcode: jsonb("transcode").$type<AssetTranscodeRow>(),
    /** Who may watch; null: anyone with the playback id. */
    playbackPolicy: jsonb("playback_policy").$type<PlaybackPolicy>(),
    createdAt: createdAt(),
    /** DELETE hides the asset from the API; its playback and download URLs keep working. */
    deletedAt: ms("deleted_at"),
    /** A takedown (DELETE ?purge=true): no playback path serves it, and its stored files are removed. */
    purgedAt: ms("purged_at"),
    /** The upload (a PUT, or a tus upload's id) that holds the asset while it is `uploading`. */
    uploadClaim: text("upload_claim"),
    /** The claim lapses at this time unless bytes keep arriving (UPLOAD_LEASE_S). */
    uploadLeaseUntil: ms("upload_lease_until"),
  },
  (t) => [
    index("assets_user_idx").on(t.userId, t.createdAt, t.id),
    index("assets_upload_lease_idx").on(t.uploadLeaseUntil),
    // Lists sorted by duration (not yet probed: 0), the expression lib/assets/service.ts sorts by.
    index("assets_user_duration_idx").on(t.userId, sql`coalesce((${t.videoSpec}->>'duration')::double precision, 0)`, t.id),
    index("assets_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
  ],
);

/**
 * One rung of an asset's ABR ladder. Its chunks are transcoded as separate jobs, on any
 * worker; the one finishing the last chunk publishes the rendition (its playlist, an MP4).
 */
export const assetRenditions = pgTable(
  "asset_renditions",
  {
    assetId: text("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Place in the ladder, tallest first. */
    position: integer("position").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** Bits per second asked of the encoder. */
    bitrate: integer("bitrate").notNull(),
    fps: doublePrecision("fps").notNull(),
    quality: integer("quality"),
    gop: doublePrecision("gop"),
    h264Profile: text("h264_profile"),
    chunks: integer("chunks").notNull(),
    chunksDone: integer("chunks_done").notNull().default(0),
    /** transcoding, ready or failed. */
    phase: text("phase").notNull(),
    errorMessage: text("error_message"),
    /** Once ready: measured peak and average bits per second, and RFC 6381 codecs, for the master playlist. */
    bandwidth: integer("bandwidth"),
    averageBandwidth: integer("average_bandwidth"),
    codecs: text("codecs"),
    /** Once its static MP4 is stored: the object key and its size. */
    mp4Key: text("mp4_key"),
    mp4Size: bigint("mp4_size", { mode: "number" }),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.name] })],
);

/** One chunk of one rendition: a time range of the source, transcoded into HLS segments. */
export const transcodeChunks = pgTable(
  "transcode_chunks",
  {
    assetId: text("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    rendition: text("rendition").notNull(),
    index: integer("index").notNull(),
    /** Seconds into the source. */
    start: doublePrecision("start").notNull(),
    duration: doublePrecision("duration").notNull(),
    /** Once done: its segments in order, file names under the rendition's folder. */
    segments: jsonb("segments").$type<{ file: string; duration: number; size: number }[]>(),
    /**
     * The chunk job transcoding it (its event id): a job takes every rendition of its chunk
     * not yet taken and encodes them from one decode of the source; a retry of the same job
     * takes them again.
     */
    claimedBy: text("claimed_by"),
    /** The job worker that did it (hostname/pid), and when. */
    worker: text("worker"),
    doneAt: ms("done_at"),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.rendition, t.index] })],
);

export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    inputAssetId: text("input_asset_id"),
    outputAssetId: text("output_asset_id"),
    params: jsonb("params").$type<Task["params"]>().notNull(),
    output: jsonb("output").$type<NonNullable<Task["output"]>>(),
    phase: text("phase").notNull(),
    progress: real("progress"),
    errorMessage: text("error_message"),
    updatedAt: ms("updated_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("tasks_user_idx").on(t.userId, t.createdAt, t.id)],
);

/*
 * Background jobs for the built-in driver (lib/jobs), used when no Inngest server is
 * configured. With an Inngest server these tables stay empty.
 */

/** What a memoised step holds, in the shape the Inngest SDK expects back. */
export type JobStepResult = { data: unknown } | { error: unknown };

/**
 * The functions the driver serves, written when it starts (like an app sync with an
 * Inngest server), so that emit() in any process can create their runs.
 */
export const jobFunctions = pgTable("job_functions", {
  /** "<app id>-<function id>", the id Inngest uses. */
  id: text("id").primaryKey(),
  appId: text("app_id").notNull(),
  /** Names of the events that trigger the function. */
  events: text("events").array().notNull(),
  concurrencyLimit: integer("concurrency_limit"),
  /** Path under event.data of the concurrency key; null: one limit for the whole function. */
  concurrencyKeyPath: text("concurrency_key_path").array(),
  syncedAt: ms("synced_at").notNull(),
});

export const jobEvents = pgTable("job_events", {
  /** Given by the sender to de-duplicate: an event id is accepted once. */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  ts: ms("ts").notNull(),
});

/** One execution of a function for an event, with everything needed to resume it. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: text("id").primaryKey(),
    functionId: text("function_id").notNull(),
    eventId: text("event_id")
      .notNull()
      .references(() => jobEvents.id, { onDelete: "cascade" }),
    status: text("status").$type<"pending" | "completed" | "failed">().notNull().default("pending"),
    /** Memoised step results by hashed step id, and their ids in completion order. */
    steps: jsonb("steps").$type<Record<string, JobStepResult>>().notNull().default({}),
    stack: text("stack").array().notNull().default(sql`'{}'::text[]`),
    /** Steps the SDK asked to run one by one (parallel steps), still to run. */
    planned: text("planned").array().notNull().default(sql`'{}'::text[]`),
    /** Attempt of the current step, from 0; reset when a step completes. */
    attempt: integer("attempt").notNull().default(0),
    /** Set once the run has had parallel steps: the SDK then plans every step. */
    parallel: boolean("parallel").notNull().default(false),
    /** "<function id>:<key value>" for functions with a concurrency limit. */
    concurrencyKey: text("concurrency_key"),
    concurrencyLimit: integer("concurrency_limit"),
    /** When the run may continue: now, after a sleep, or after a retry's back-off. */
    nextRunAt: ms("next_run_at").notNull(),
    /** The process driving the run, until locked_until (a lease it renews while busy). */
    lockedBy: text("locked_by"),
    lockedUntil: ms("locked_until").notNull().default(0),
    output: jsonb("output"),
    error: jsonb("error"),
    createdAt: createdAt(),
    endedAt: ms("ended_at"),
  },
  (t) => [
    index("job_runs_due_idx").on(t.nextRunAt).where(sql`status = 'pending'`),
    index("job_runs_concurrency_idx").on(t.concurrencyKey, t.lockedUntil).where(sql`status = 'pending'`),
    index("job_runs_event_idx").on(t.eventId),
  ],
);

/** A caption file of an asset (WebVTT in the store, SRT converted on the way in). */
export const assetTextTracks = pgTable(
  "asset_text_tracks",
  {
    id: text("id").primaryKey(),
    assetId: text("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    /** BCP 47. */
    language: text("language").notNull(),
    name: text("name").notNull(),
    /** What was given: vtt or srt. */
    format: text("format").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("asset_text_tracks_asset_idx").on(t.assetId, t.createdAt)],
);

/**
 * ES256 public keys that sign viewers' playback JWTs. The private half is shown once at
 * creation and never stored.
 */
export const signingKeys = pgTable(
  "signing_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Base64 of the SPKI PEM, as Livepeer shows it and as JWTs name it in their `pub` claim. */
    publicKey: text("public_key").notNull(),
    disabled: boolean("disabled").notNull().default(false),
    createdAt: createdAt(),
    /** When the key last admitted a viewer (updated at most once a minute). */
    lastSeen: ms("last_seen"),
  },
  (t) => [index("signing_keys_user_idx").on(t.userId, t.createdAt), index("signing_keys_public_key_idx").on(t.publicKey)],
);

/**
 * A webhook policy's admissions, shared by every app instance: an access key its receiver
 * admitted for a playback id, until refreshInterval passes. Keyed by a hash: access keys
 * are the viewers' secrets.
 */
export const playbackAdmissions = pgTable(
  "playback_admissions",
  {
    key: text("key").primaryKey(),
    expiresAt: ms("expires_at").notNull(),
  },
  (t) => [index("playback_admissions_expiry_idx").on(t.expiresAt)],
);

/**
 * One view: a viewer's play intent on a playback id and how it went, as its player's beacons
 * last said (lib/analytics). Kept VIEW_RETENTION_DAYS; what the API reports comes from the
 * roll-ups below. Unknown dimensions are '' (not null: they group as one value). No address.
 */
export const views = pgTable(
  "views",
  {
    /**
     * The player's id for the view: random, or (Castline's player, lib/client/view-beacons.ts
     * newViewId) the time it began then random bits, which keeps the views still beating together
     * at the end of this key's index.
     */
    id: text("id").primaryKey(),
    playbackId: text("playback_id").notNull(),
    /** The content's owner and the content (a stream or an asset id), as they were when it was watched. */
    userId: text("user_id").notNull(),
    contentId: text("content_id").notNull(),
    viewerId: text("viewer_id").notNull(),
    startedAt: ms("started_at").notNull(),
    seenAt: ms("seen_at").notNull(),
    /**
     * seen_at's minute: what the index of views playing now holds. seen_at changes with every
     * beacon, its minute once in six (at one beacon per 10 s), so the others' writes change no
     * indexed column and stay on their page without touching an index (HOT updates: the table's
     * fillfactor leaves them room).
     */
    seenMinute: integer("seen_minute").notNull().generatedAlwaysAs(sql`(seen_at / 60000)::int`),
    browser: text("browser").notNull().default(""),
    browserEngine: text("browser_engine").notNull().default(""),
    os: text("os").notNull().default(""),
    deviceType: text("device_type").notNull().default(""),
    device: text("device").notNull().default(""),
    country: text("country").notNull().default(""),
    continent: text("continent").notNull().default(""),
    timezone: text("timezone").notNull().default(""),
    mode: text("mode").notNull().default(""),
    ttffMs: integer("ttff_ms"),
    playedMs: bigint("played_ms", { mode: "number" }).notNull().default(0),
    rebufferCount: integer("rebuffer_count").notNull().default(0),
    rebufferMs: bigint("rebuffer_ms", { mode: "number" }).notNull().default(0),
    errorCount: integer("error_count").notNull().default(0),
    errorType: text("error_type"),
    seekCount: integer("seek_count").notNull().default(0),
    qualityChanges: integer("quality_changes").notNull().default(0),
    height: integer("height"),
    ended: boolean("ended").notNull().default(false),
    /**
     * What the summed columns were before the last beacon's write (null: the view was made by it):
     * the writer's change to the roll-ups is the difference (lib/analytics/rollup.ts deltaOf).
     * Set by the write itself, from the row it replaced, so that two instances writing one view
     * at once each count their own change.
     */
    priorPlayedMs: bigint("prior_played_ms", { mode: "number" }),
    priorTtffMs: integer("prior_ttff_ms"),
    priorRebufferMs: bigint("prior_rebuffer_ms", { mode: "number" }),
    priorErrorCount: integer("prior_error_count"),
    priorEnded: boolean("prior_ended"),
  },
  (t) => [
    // Views playing now, per account (GET /data/views/now).
    index("views_user_seen_idx").on(t.userId, t.seenMinute),
    // Retention.
    index("views_started_idx").on(t.startedAt),
  ],
);

/** The dimensions the roll-ups keep (all of a view's but the viewer), as columns of each table that keeps them. */
const viewDimensions = () => ({
  browser: text("browser").notNull(),
  browserEngine: text("browser_engine").notNull(),
  os: text("os").notNull(),
  deviceType: text("device_type").notNull(),
  device: text("device").notNull(),
  country: text("country").notNull(),
  continent: text("continent").notNull(),
  timezone: text("timezone").notNull(),
});

/** What the roll-ups sum, as columns of each of them. */
const viewMetrics = () => ({
  views: integer("views").notNull(),
  playedMs: bigint("played_ms", { mode: "number" }).notNull(),
  /** Views that showed a first frame, and the sum and histogram (TTFF_BUCKETS_MS) of their times to it. */
  ttffCount: integer("ttff_count").notNull(),
  ttffSumMs: bigint("ttff_sum_ms", { mode: "number" }).notNull(),
  ttffHistogram: integer("ttff_histogram").array().notNull(),
  rebufferMs: bigint("rebuffer_ms", { mode: "number" }).notNull(),
  /** Views that met an error. */
  errored: integer("errored").notNull(),
  /** Views that ended before a first frame. */
  exitsBeforeStart: integer("exits_before_start").notNull(),
});

/**
 * The changes to the roll-ups not yet applied: one row per view written (its change: the view
 * itself when new, else the difference its beacon made), appended by the beacon writer in the
 * statement that writes the view, removed by the roll-up in the transaction that adds them up
 * (lib/analytics/rollup.ts). Each change counts once, whatever crashes: its view's write and its
 * application are each one transaction. Shaped as view_hours: the view's hour, playback id and
 * dimensions, and the sums' changes (ttff_histogram null when unchanged).
 */
export const viewDeltas = pgTable("view_deltas", {
  hour: ms("hour").notNull(),
  playbackId: text("playback_id").notNull(),
  userId: text("user_id").notNull(),
  contentId: text("content_id").notNull(),
  ...viewDimensions(),
  ...viewMetrics(),
  ttffHistogram: integer("ttff_histogram").array(),
});

/**
 * Views rolled up by the hour they began, per playback id and every dimension but the viewer:
 * what the viewership API and the dashboard's charts read (lib/analytics/rollup.ts adds view_deltas
 * to it), with the three tables below. Kept for ever. Each page keeps room for the roll-up's
 * additions to its rows (fillfactor 90 here, 80 in the three smaller ones: set by migration
 * 0029), which then stay on their page and touch no index (HOT updates).
 */
export const viewHours = pgTable(
  "view_hours",
  {
    hour: ms("hour").notNull(),
    playbackId: text("playback_id").notNull(),
    userId: text("user_id").notNull(),
    contentId: text("content_id").notNull(),
    /**
     * The row's dimensions as one value (lib/analytics/rollup.ts combinationOf: an MD5 of them):
     * the key the roll-up adds to, a third the size of the eight columns as a key.
     */
    combination: uuid("combination").notNull(),
    ...viewDimensions(),
    ...viewMetrics(),
  },
  (t) => [
    // A combination's row in an hour: what the roll-up adds its changes to (and a playback id's hours, read by the key's start).
    primaryKey({ name: "view_hours_pkey", columns: [t.playbackId, t.hour, t.combination] }),
    index("view_hours_user_idx").on(t.userId, t.hour),
  ],
);

/**
 * view_hours summed over the dimensions: one row per hour and playback id. What a playback id's
 * figures without a breakdown by dimension read (at most 24 rows a day, where view_hours has one
 * per combination of dimensions seen). Added to with view_hours.
 */
export const viewHoursByPlayback = pgTable(
  "view_hours_by_playback",
  {
    hour: ms("hour").notNull(),
    playbackId: text("playback_id").notNull(),
    userId: text("user_id").notNull(),
    contentId: text("content_id").notNull(),
    ...viewMetrics(),
  },
  (t) => [primaryKey({ name: "view_hours_by_playback_pkey", columns: [t.playbackId, t.hour] }), index("view_hours_by_playback_user_idx").on(t.userId, t.hour)],
);

/**
 * view_hours_by_playback summed by day (UTC): one row per day and playback id. What the figures
 * by playback id over days read (an account's top content over 30 days: 30 rows per playback id,
 * where the hours are 720), joined with the hours at a range's partial days, and the public totals.
 * Added to with view_hours.
 */
export const viewDaysByPlayback = pgTable(
  "view_days_by_playback",
  {
    day: ms("day").notNull(),
    playbackId: text("playback_id").notNull(),
    userId: text("user_id").notNull(),
    contentId: text("content_id").notNull(),
    ...viewMetrics(),
  },
  (t) => [primaryKey({ columns: [t.playbackId, t.day] }), index("view_days_by_playback_user_idx").on(t.userId, t.day)],
);

/**
 * view_hours summed over the account's playback ids, one dimension at a time: per hour and
 * account, a row for each value of each dimension (`dimension` a column of view_hours, `value`
 * its value) and one for the hour's total (both ''). What the account-wide figures by at most one
 * dimension read: an hour's rows are the dimensions' values seen, added up (tens), where
 * view_hours has their combinations for each playback id. Added to with view_hours.
 */
export const viewHoursByAccount = pgTable(
  "view_hours_by_account",
  {
    hour: ms("hour").notNull(),
    userId: text("user_id").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    ...viewMetrics(),
  },
  (t) => [primaryKey({ name: "view_hours_by_account_pkey", columns: [t.userId, t.dimension, t.hour, t.value] })],
);

/** How far a periodic job over PostgreSQL has got, by name (lib/analytics/rollup.ts: the views rolled up). */
export const progressMarks = pgTable("progress_marks", {
  name: text("name").primaryKey(),
  upto: ms("upto").notNull(),
});
