// biome-ignore-all format: a table, one entry per line, read down its columns
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * Every setting Castline reads from the environment, parsed once: the only reader of
 * process.env in app and lib code (code that sets a setting calls reloadConfig()). Each carries its description
 * (and, where the default is not a plain value, what unset means) as zod metadata:
 * `npm run docs:config` writes docs/configuration.md from them, and a unit test keeps it current.
 */
const bool = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

/** A setting's reference entry: what it means and, when that is not its default value, what unset means. */
export type SettingDoc = {
  description: string;
  whenUnset?: string;
};
const doc = (description: string, whenUnset?: string): SettingDoc => ({ description, ...(whenUnset && { whenUnset }) });

const server = {
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).meta(doc("HTTP port (0: any free port).")),
  HOST: z.string().min(1).default("0.0.0.0").meta(doc("Address to listen on.")),
  EDGE_PORT: z.coerce.number().int().min(0).max(65535).default(3001).meta(doc(
    "`npm run edge`: the port of the delivery plane run on its own (viewer paths and `/metrics` only), beside or apart from the app (0: any free port). It listens on `HOST`.",
  )),
  DATA_DIR: z.string().min(1).default("./data").meta(doc("Everything stored locally: the embedded database (`pg/`), generated secrets, objects.")),
  PUBLIC_URL: z.url({ message: "must be an absolute URL such as https://video.example.com" }).optional().meta(doc(
    "The public origin of this deployment, for URLs handed to users and sign-in/sign-out redirects. Unset, URLs in an answer are at the origin its request came to (the `Host` header, or with `AUTH_TRUST_HOST` the proxy's `X-Forwarded-Host`/`-Proto`), and those made by background work (webhook payloads, IPFS metadata) at the app's own address: set it for those.",
    "the request's origin",
  )),
  CDN_URL: z.url({ message: "must be an absolute URL such as https://cdn.example.com" }).optional().meta(doc(
    "Origin of asset `downloadUrl`s (`{CDN_URL}/asset/<playbackId>/video`): a CDN in front of the app, which serves them itself.",
    "the app's origin",
  )),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0).meta(doc(
    "How many reverse proxies in front append the client's address to `X-Forwarded-For` (the client is the entry that many from the right). 0: the connection's peer is the client and `X-Forwarded-For` is ignored (a client could write anything there).",
  )),
};

const database = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional()
    .meta(doc("`postgres://…` of any PostgreSQL 15 or newer.", "an embedded PostgreSQL started in `DATA_DIR/pg`")),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10).meta(doc("Database connections per process.")),
};

const accounts = {
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional().meta(doc(
    "Signs dashboard sessions, upload URLs and sealed job data (at least 32 characters). Set it, the same, on every app instance.",
    "generated once into `DATA_DIR/auth-secret`",
  )),
  AUTH_TRUST_HOST: bool.default(false).meta(doc(
    "Behind a reverse proxy: take the origin of sign-in/sign-out redirects from its `X-Forwarded-Host`/`X-Forwarded-Proto` (without it and without `PUBLIC_URL`, the `Host` header: let the proxy pass it on).",
  )),
  AUTH_URL: z.string().optional().meta(doc(
    "Auth.js's own override of the origin of its redirects, read by Auth.js itself; set, the app leaves the request's origin to it.",
    "the request's origin (or `PUBLIC_URL`)",
  )),
  NEXTAUTH_URL: z.string().optional().meta(doc("The older name of `AUTH_URL`, read the same way.", "as `AUTH_URL`")),
  PASSWORD_HASH_COST: z.coerce.number().int().min(12).max(18).default(15).meta(doc(
    "scrypt cost of password hashes as log2 N: 15 is N = 32768 (32 MiB and about 0.1-0.3 s of one core per sign-up or sign-in). Each hash keeps its own parameters, so a change applies to passwords set from then on; raise it for stronger hashes. The test suite lowers it to 12, its many sign-ups otherwise spend minutes of CPU.",
  )),
  ALLOW_SIGNUP: bool.default(true).meta(doc("Whether anyone can sign up from the dashboard (`false`: operators make accounts with the CLI).")),
  SMTP_URL: z
    .url({ message: "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587" })
    .regex(/^smtps?:\/\//i, "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587")
    .optional()
    .meta(doc(
      "Outgoing mail: `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://…:465`. With it, sign-up proves the address: the account is made from a link mailed to it (see [security](security.md)).",
      "no mail",
    )),
  MAIL_FROM: z.string().min(3).max(200).optional().meta(doc(
    "The From of the mail Castline sends, e.g. `Castline <video@example.com>` (required with `SMTP_URL`).",
    "none",
  )),
};

const rateLimits = {
  RATE_LIMIT_API_PER_MIN: z.coerce.number().int().min(0).default(1200).meta(doc(
    "Requests a minute per API key to `/api` (0: no limit; see [rate limits](security.md#rate-limits)).",
  )),
  RATE_LIMIT_IP_PER_MIN: z.coerce.number().int().min(0).default(3000).meta(doc(
    "Requests a minute per client address (IPv6: per /64) to `/api`, playback info aside (0: no limit).",
  )),
  RATE_LIMIT_AUTH_PER_MIN: z.coerce.number().int().min(0).default(10).meta(doc(
    "Failed sign-ins a minute per email and per address, and sign-ups a minute per address (0: no limit).",
  )),
  RATE_LIMIT_BEACONS_PER_MIN: z.coerce.number().int().min(0).default(600).meta(doc(
    "Viewer beacons a minute per address to `/api/data/views/beacon` (0: no limit). A player sends about 8 a minute, and many viewers may share one address behind NAT.",
  )),
  RATE_LIMIT_PLAYBACK_PER_MIN: z.coerce.number().int().min(0).default(12000).meta(doc(
    "Requests a minute per address to `/hls`, `/asset`, `/recordings` and `/api/playback` (0: no limit). A live viewer fetches a playlist and a segment every segment (about 60 a minute), and many viewers may share one address behind NAT.",
  )),
};

const jobs = {
  JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(1).meta(doc(
    "Background-work processes `npm start` runs (0: inside the web process); ignored with an Inngest server.",
  )),
  JOB_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7).meta(doc(
    "How long the built-in driver keeps finished runs and their events, in days (fractions allowed).",
  )),
  INNGEST_DEV: z.string().optional().meta(doc(
    "Use an Inngest dev server (its URL, e.g. `http://localhost:8288`) instead of the built-in driver (see [background work](background-work.md)).",
  )),
  INNGEST_BASE_URL: z.string().optional().meta(doc("Use a self-hosted Inngest server at this URL instead of the built-in driver.")),
  INNGEST_EVENT_KEY: z.string().optional().meta(doc("The Inngest server's (or Inngest Cloud's) event key; set alone, Inngest Cloud runs the background work.")),
  INNGEST_SIGNING_KEY: z.string().optional().meta(doc("The Inngest server's signing key, which signs its calls to `/api/inngest`.")),
};

const live = {
  MEDIA_NODE: bool.default(true).meta(doc("Whether `npm start` runs a media node (RTMP ingest, live transcoding).")),
  RTMP_PORT: z.coerce.number().int().min(1).max(65535).default(1935).meta(doc("Where the media node accepts RTMP (a second node on one machine needs another).")),
  RTMP_HOST: z.string().min(1).default("0.0.0.0").meta(doc("The address the media node accepts RTMP on.")),
  WEBRTC_SIGNAL_PORT: z.coerce.number().int().min(0).max(65535).default(0).meta(doc(
    "Where the media node takes WebRTC publishes handed on by app instances (its WHIP signalling, on `RTMP_HOST`, authenticated with `MEDIA_SECRET`; 0: any free port, which it registers). Encoders and browsers use the app's `/webrtc/<stream key>`.",
  )),
  WEBRTC_HOST: z.union([z.ipv4(), z.ipv6()]).optional().meta(doc(
    "The address the media node's WebRTC binds and offers browsers (its ICE host candidate): a machine with several addresses, or loopback alone (tests).",
    "every interface's address",
  )),
  WEBRTC_PUBLIC_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((a) => a.trim()).filter(Boolean) : []))
    .pipe(z.array(z.union([z.ipv4(), z.ipv6()])))
    .meta(doc(
      "Public addresses (comma-separated) the media node's WebRTC offers besides `WEBRTC_HOST`'s: a node behind 1:1 NAT (a cloud VM) whose public address is not on an interface. The NAT must forward `WEBRTC_UDP_PORTS` unchanged. See [WebRTC](webrtc.md).",
      "none",
    )),
  WEBRTC_UDP_PORTS: z.string().regex(/^\d{1,5}-\d{1,5}$/, "must be a range, e.g. 40000-40999").optional().meta(doc(
    "The UDP ports (`first-last`) the media node's WebRTC uses for ICE: open them in the firewall.",
    "any free port",
  )),
  STUN_PORT: z.coerce.number().int().min(0).max(65535).default(3478).meta(doc(
    "The UDP port where the app answers STUN on `HOST` (0: not at all). Livepeer's players and broadcasters ask the WebRTC URL's host for STUN and TURN there and wait up to 5 s for an answer; a taken port (coturn's) is left to its owner. See [WebRTC](webrtc.md).",
  )),
  HLS_SEGMENT_S: z.coerce.number().min(1).max(10).default(2).meta(doc("Live segment length in seconds (1 lowers latency).")),
  RECORDING_RECONNECT_WINDOW_S: z.coerce.number().int().min(0).max(1800).default(60).meta(doc(
    "The reconnect window (0-1800 s) of streams that set no `reconnectWindow`: how long after a recorded broadcast ends a publish continues it, before the recording becomes an asset. Mux's default: 60.",
  )),
  LIVE_DVR_WINDOW_S: z.coerce.number().int().min(60).max(86_400).default(600).meta(doc(
    "The last seconds of every live session (recorded or not) kept in the store to clip from, and how long they stay after it ends.",
  )),
  CLIP_MAX_S: z.coerce.number().int().min(1).max(86_400).default(7200).meta(doc("The longest clip `POST /api/clip` makes, in seconds.")),
  FFMPEG_PATH: z.string().min(1).default("ffmpeg").meta(doc("The ffmpeg binary (ffprobe is taken from the same folder); without it, live ingest is off.")),
};

const mediaNodes = {
  APP_URL: z.url({ message: "must be the URL where media nodes reach the app, e.g. http://10.0.0.5:3000" }).optional().meta(doc(
    "Where media nodes reach the app (`npm run media` needs it).",
    "the app's own address",
  )),
  MEDIA_SECRET: z.string().min(32, "must be at least 32 characters").optional().meta(doc(
    "Authenticates media nodes to the app (at least 32 characters). Set it, the same, on every app instance and media node.",
    "generated into `DATA_DIR/media-secret`",
  )),
  NODE_LOST_AFTER_S: z.coerce.number().min(2).max(600).default(10).meta(doc(
    "A media node (and a session) silent this long is lost: its sessions end and may continue on another node.",
  )),
  MEDIA_PUBLIC_HOST: z.string().regex(/^[\w.-]+(:\d{1,5})?$/, "must be a host name or address, optionally with :port").optional().meta(doc(
    "Media nodes: the `host[:port]` encoders reach this node at, as `GET /api/ingest` lists it.",
    "the app's public host on the node's `RTMP_PORT`",
  )),
  MEDIA_STORE: z.enum(["direct", "app"]).optional().meta(doc(
    "Media nodes: store live HLS and recordings in the deployment's store directly (`direct`: S3, or the local disk it shares with the app), or through the app's internal API (`app`).",
    "`direct` with `S3_*`, else `app`",
  )),
};

const vod = {
  TRANSCODE_CHUNK_S: z.coerce.number().int().min(4).max(600).multipleOf(4, "must be a multiple of 4 (the segment length)").default(12).meta(doc(
    "VOD renditions: seconds of source per transcode job, a multiple of 4 (the segment length). Shorter chunks spread an asset over more workers and lose less to a crash, but each costs an ffmpeg start, a seek and an encoder warm-up ([scaling](scaling.md) has the figures).",
  )),
  TRANSCODE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(os.availableParallelism()).meta(doc(
    "Chunk transcodes a job worker runs at once (each ffmpeg uses every core); half of it (one at least) while a media node on its machine has live sessions, one while a broadcast there is behind real time.",
    "the machine's cores",
  )),
  TRANSCODE_PRESET: z.enum(["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow"]).default("veryfast").meta(doc(
    "x264 preset of VOD renditions (`ultrafast` … `slow`): slower presets make smaller files for more CPU.",
  )),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(10 * 1024 ** 3).meta(doc("The largest upload or import, in bytes (10 GiB).")),
  UPLOAD_URL_TTL_S: z.coerce.number().int().min(60).max(7 * 86_400).default(86_400).meta(doc(
    "How long a pre-signed upload URL works, and a paused tus upload can be resumed.",
  )),
  UPLOAD_LEASE_S: z.coerce.number().int().min(1).max(3600).default(30).meta(doc(
    "How long an upload that sends nothing (stalled, disconnected, crashed) keeps its asset (and its parts) from other attempts.",
  )),
  PINNING_API_URL: z.url().default("https://api.pinata.cloud").meta(doc("A Pinata-compatible pinning API, for IPFS exports that bring pinning credentials.")),
};

const playback = {
  PLAYBACK_TOKEN_TTL_S: z.coerce.number().int().min(1).max(7 * 86_400).default(3600).meta(doc(
    "Gated playback: how long a viewer's admission lasts in the URLs handed out after it (playlists, segments, files). A leaked URL stops working after this; players re-admit with the viewer's credential (a webhook policy's shorter `refreshInterval` wins).",
  )),
  ACCESS_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2000).meta(doc(
    "A webhook policy's receiver answering later than this: the access check is unavailable and the viewer is not admitted.",
  )),
  LIVE_SEGMENT_MEMORY_MB: z.coerce.number().int().min(0).max(16_384).default(64).meta(doc(
    "Memory per instance (MiB) for live segments just served: every viewer fetches each new segment within seconds, so each is read from the store once and answered from memory (0: read for every request).",
  )),
};

const analytics = {
  VIEW_ROLLUP_EVERY_S: z.coerce.number().min(0.5).max(3600).default(10).meta(doc(
    "How often the views' recorded changes are added up into the hourly and daily figures the viewership API and the dashboard read (one instance at a time): how fresh those are. A run's work follows the beacons since the last.",
  )),
  VIEW_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30).meta(doc(
    "Days each view's own record (its viewer id, device, how it went) is kept; the hourly roll-ups the dashboard and the viewership API read are kept for ever.",
  )),
  COUNTRY_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/).optional().meta(doc(
    "A request header a CDN in front sets to the viewer's country (ISO 3166 alpha-2), e.g. `CF-IPCountry` (Cloudflare) or `CloudFront-Viewer-Country`: read from viewer beacons. Only set it behind that CDN: a client could send it too.",
    "the country comes from `GEOIP_DATABASE`, else is unknown",
  )),
  GEOIP_DATABASE: z.string().min(1).optional().meta(doc(
    "A GeoLite2 or GeoIP2 Country or City database (`.mmdb`) the operator provides (MaxMind's licence forbids shipping one): viewers' countries and continents from their addresses, which are never stored.",
    "countries only from `COUNTRY_HEADER`, else unknown",
  )),
};

const objectStore = {
  S3_ENDPOINT: z.url({ message: "must be the S3 API URL, e.g. https://s3.us-east-1.amazonaws.com" }).optional().meta(doc(
    "Keep objects (uploads, HLS, recordings, thumbnails) in an S3-compatible store instead of `DATA_DIR/objects`: its API URL. `S3_ENDPOINT`, `S3_BUCKET`, `S3_ACCESS_KEY_ID` and `S3_SECRET_ACCESS_KEY`: all four or none.",
  )),
  S3_BUCKET: z.string().min(1).optional().meta(doc("The S3 bucket.")),
  S3_ACCESS_KEY_ID: z.string().min(1).optional().meta(doc("The S3 access key id.")),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional().meta(doc("The S3 secret access key.")),
  S3_REGION: z.string().min(1).default("us-east-1").meta(doc("The S3 region.")),
  S3_FORCE_PATH_STYLE: bool.default(true).meta(doc(
    "Path-style URLs (endpoint/bucket/key): MinIO, R2, s3rver and most self-hosted stores need them; `false` for AWS virtual-hosted buckets.",
  )),
};

const operations = {
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional().meta(doc(
    "Bearer token (16 characters or more) for `GET /metrics` (see [metrics](metrics.md)).",
    "app instances serve no metrics",
  )),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0).meta(doc("Media nodes: the port of their own `/metrics` (0: none).")),
  ALLOW_PRIVATE_URLS: bool.default(false).meta(doc(
    "Let webhooks, imports, exports, captions and multistream reach private and loopback addresses (tests, or a deployment whose receivers live on its own network).",
  )),
  CHECK_RESPONSES: bool.default(false).meta(doc(
    "Check every JSON answer against its operation's declared schema and answer 500 on a mismatch (`lib/api/route.ts`; the test suite turns it on).",
  )),
};

/** The settings by topic, in the reference's order. */
export const SETTING_GROUPS = {
  Server: server,
  Database: database,
  "Accounts and mail": accounts,
  "Rate limits": rateLimits,
  "Background work": jobs,
  "Live streaming": live,
  "Media nodes": mediaNodes,
  "Video on demand": vod,
  "Gated playback": playback,
  "Viewer analytics": analytics,
  "Object store": objectStore,
  "Operations and tests": operations,
};

export const ConfigSchema = z.object({
  ...server,
  ...database,
  ...accounts,
  ...rateLimits,
  ...jobs,
  ...live,
  ...mediaNodes,
  ...vod,
  ...playback,
  ...analytics,
  ...objectStore,
  ...operations,
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
