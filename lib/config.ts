import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * Every setting Castline reads from the environment, parsed once: the only reader of
 * process.env in app and lib code (code that sets a setting calls reloadConfig()).
 * The README's configuration table mirrors this schema.
 */
const bool = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  PUBLIC_URL: z.url({ message: "must be an absolute URL such as https://video.example.com" }).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Behind a reverse proxy: take the origin for sign-in redirects from X-Forwarded-Host/Proto. */
  AUTH_TRUST_HOST: bool.default(false),
  /**
   * Auth.js's own override of the origin of its redirects (NEXTAUTH_URL: its older name), read by
   * Auth.js itself; set, the app leaves the request's origin to it (lib/auth/origin.ts).
   */
  AUTH_URL: z.string().optional(),
  NEXTAUTH_URL: z.string().optional(),
  ALLOW_SIGNUP: bool.default(true),
  /**
   * Outgoing mail: smtp://user:password@host:587 (STARTTLS when the server offers it) or
   * smtps://…:465. With it, sign-up proves the address: the account is made from a link mailed to it.
   */
  SMTP_URL: z
    .url({ message: "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587" })
    .regex(/^smtps?:\/\//i, "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587")
    .optional(),
  /** The From of the mail Castline sends, e.g. "Castline <video@example.com>". */
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /**
   * How many reverse proxies in front append the client's address to X-Forwarded-For. 0: the
   * connection's peer is the client and X-Forwarded-For is ignored (a client could write anything there).
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Requests a minute per API key, to /api (0: no limit). */
  RATE_LIMIT_API_PER_MIN: z.coerce.number().int().min(0).default(1200),
  /** Requests a minute per client address (IPv6: per /64), to /api except playback info (0: no limit). */
  RATE_LIMIT_IP_PER_MIN: z.coerce.number().int().min(0).default(3000),
  /** Failed sign-ins a minute per email and per address, and sign-ups a minute per address (0: no limit). */
  RATE_LIMIT_AUTH_PER_MIN: z.coerce.number().int().min(0).default(10),
  /**
   * Playback requests a minute per address: /hls, /asset, /recordings, /api/playback (0: no limit).
   * A live viewer fetches a playlist and a segment every segment (about 60 a minute), and many
   * viewers may share one address behind NAT.
   */
  RATE_LIMIT_PLAYBACK_PER_MIN: z.coerce.number().int().min(0).default(12000),
  ALLOW_PRIVATE_URLS: bool.default(false),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(1),
  /** Days the built-in driver keeps finished runs and their events (fractions allowed). */
  JOB_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7),
  /**
   * An Inngest server runs the background functions instead of the built-in driver (lib/jobs/mode.ts):
   * INNGEST_DEV=<url> for the dev server, INNGEST_BASE_URL for a self-hosted one, INNGEST_EVENT_KEY
   * for Inngest Cloud. The Inngest SDK reads them (and INNGEST_SIGNING_KEY) itself.
   */
  INNGEST_DEV: z.string().optional(),
  INNGEST_BASE_URL: z.string().optional(),
  INNGEST_EVENT_KEY: z.string().optional(),
  MEDIA_NODE: bool.default(true),
  RTMP_PORT: z.coerce.number().int().min(1).max(65535).default(1935),
  RTMP_HOST: z.string().min(1).default("0.0.0.0"),
  HLS_SEGMENT_S: z.coerce.number().min(1).max(10).default(2),
  /**
   * The reconnect window of streams that set none (`reconnectWindow`): seconds after a recorded
   * broadcast ends in which a publish continues it. Mux's default: 60.
   */
  RECORDING_RECONNECT_WINDOW_S: z.coerce.number().int().min(0).max(1800).default(60),
  /** The last seconds of every live session (recorded or not) kept in the store to clip from, and kept this long after it ends. */
  LIVE_DVR_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(600),
  /** The longest clip POST /api/clip makes. */
  CLIP_MAX_S: z.coerce.number().int().min(1).max(86_400).default(7200),
  /** A media node that sends no heartbeat this long is lost: its sessions end and another node may take them. */
  NODE_LOST_AFTER_S: z.coerce.number().min(2).max(600).default(10),
  /**
   * The host (and port, if not RTMP_PORT) encoders reach this media node at, as GET /api/ingest
   * lists it; unset: the app's public host.
   */
  MEDIA_PUBLIC_HOST: z.string().regex(/^[\w.-]+(:\d{1,5})?$/, "must be a host name or address, optionally with :port").optional(),
  /**
   * How a media node stores live HLS and recordings: "direct" with the deployment's store itself
   * (S3, or the local disk it shares with the app), "app" through the app's internal API.
   * Unset: direct when S3_* is set, else through the app.
   */
  MEDIA_STORE: z.enum(["direct", "app"]).optional(),
  /** Bearer token for the Prometheus metrics (GET /metrics); unset, metrics are not served. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Media nodes: the port their /metrics listens on (0: off). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  MEDIA_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  APP_URL: z.url({ message: "must be the URL where media nodes reach the app, e.g. http://10.0.0.5:3000" }).optional(),
  FFMPEG_PATH: z.string().min(1).default("ffmpeg"),
  /**
   * VOD renditions: seconds of source per chunk job (a whole number of 4 s segments).
   * Shorter chunks spread an asset over more workers and lose less to a crash, but each
   * costs an ffmpeg start, a seek and an encoder warm-up (docs/scaling.md has the figures).
   */
  TRANSCODE_CHUNK_S: z.coerce.number().int().min(4).max(600).multipleOf(4, "must be a multiple of 4 (the segment length)").default(12),
  /** Chunks a job worker transcodes at once (each ffmpeg uses every core; default: the cores). */
  TRANSCODE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(os.availableParallelism()),
  /** x264 preset of VOD renditions: slower presets make smaller files for more CPU. */
  TRANSCODE_PRESET: z.enum(["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow"]).default("veryfast"),
  /** Origin of asset download URLs ({CDN_URL}/asset/<playbackId>/video); the app serves them itself. */
  CDN_URL: z.url({ message: "must be an absolute URL such as https://cdn.example.com" }).optional(),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(10 * 1024 ** 3),
  /** How long a pre-signed upload URL works. */
  UPLOAD_URL_TTL_S: z.coerce.number().int().min(60).max(7 * 86_400).default(86_400),
  /**
   * How long an upload holds its asset without a byte arriving: a stalled,
   * disconnected or crashed upload frees the asset (and its parts) after this.
   */
  UPLOAD_LEASE_S: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Gated playback: how long a viewer's admission lasts in the URLs handed out after it
   * (playlists, segments, files). A leaked URL stops working after this; players re-admit
   * with the viewer's credential (a webhook policy's refreshInterval, when shorter, wins).
   */
  PLAYBACK_TOKEN_TTL_S: z.coerce.number().int().min(1).max(7 * 86_400).default(3600),
  /** A webhook policy's receiver answering later than this denies the viewer. */
  ACCESS_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2000),
  S3_ENDPOINT: z.url({ message: "must be the S3 API URL, e.g. https://s3.us-east-1.amazonaws.com" }).optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Path-style URLs (endpoint/bucket/key): MinIO, s3rver and most self-hosted stores need them. */
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** A Pinata-compatible pinning API, used when an IPFS export brings pinning credentials. */
  PINNING_API_URL: z.url().default("https://api.pinata.cloud"),
  /** Tests: check every JSON answer against its operation's declared schema (lib/api/route.ts). */
  CHECK_RESPONSES: bool.default(false),
}).superRefine((c, ctx) => {
  if (c.SMTP_URL && !c.MAIL_FROM) {
    ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "SMTP_URL needs MAIL_FROM, the address Castline's mail comes from" });
  }
  const s3 = [c.S3_ENDPOINT, c.S3_BUCKET, c.S3_ACCESS_KEY_ID, c.S3_SECRET_ACCESS_KEY];
  if (s3.some(Boolean) && !s3.every(Boolean)) {
    ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "S3 storage needs all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY" });
  }
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string };

let cached: Config | undefined;

/** After the launcher sets a setting it derives (APP_URL, once it listens), read the environment again. */
export function reloadConfig(): Config {
  cached = undefined;
  return config();
}

export function config(): Config {
  if (cached) return cached;
  const parsed = ConfigSchema.safeParse(
    Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  cached = { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
  return cached;
}
