import type { z } from "zod";
import { MAX_SIGNING_KEYS } from "@/lib/access/schema";
import type { Operations } from "./operations";

/**
 * What the API reference says beside each declaration of lib/api/operations.ts: a description
 * of every tag and every public operation, and an example of every JSON request body. The
 * types make them complete (a new operation or tag does not compile without its text) and
 * make each example fit its body schema; test/openapi.test.ts sends every example to a
 * running app.
 */

type PublicId = { [K in keyof Operations]: Operations[K] extends { internal: true } ? never : K }[keyof Operations];
export type Tag = Operations[PublicId]["tag"];

interface Described {
  description: string;
}
type WithExample<O> = O extends { body: infer B extends z.ZodType } ? { example: z.input<B> } : { example?: never };
type OperationReference = { [K in PublicId]: Described & WithExample<Operations[K]> };

/**
 * Ids the examples use where a request names another object. The integration test swaps
 * them for objects it created.
 */
export const EXAMPLE_IDS = {
  targetId: "0b4c6b2e-0f5e-4d9b-9a51-4d2f7c3e8a10",
  webhookId: "7a1e2f0c-3b9d-4c55-8e21-9d0f3a6b4c72",
  assetPlaybackId: "f3kq7zr9b2mx4tnw",
} as const;

export const TAGS: Record<Tag, string> = {
  Streams:
    "A stream is what an encoder (OBS, ffmpeg) publishes to over RTMP with its stream key, and what viewers watch by its playback id. It carries the renditions (profiles) made while it is live, whether broadcasts are recorded, and the multistream targets they are sent on to. See the guide *Live ingest*.",
  Sessions:
    "A session is one broadcast of a stream: from the first segment to the end of the RTMP connection (or the end of the reconnect window, for recorded streams). It keeps the broadcast's counters and, when recorded, its recording.",
  Clips: "A clip cuts a range out of a live stream's recent past, a session's recording or an asset, and becomes an asset of its own, made by a clip task.",
  Multistream:
    "Multistream targets are other services' ingest URLs (YouTube, Twitch, another RTMP or SRT server). Attached to a stream, they receive its broadcasts (the source, or one rendition) while it is live. A target's URL holds its stream key: it is write-only.",
  Assets:
    "An asset is a video on demand: uploaded (a pre-signed PUT or tus), imported from a URL, recorded from a broadcast or clipped. It is processed into HLS (playable within seconds) and an adaptive ladder of renditions. See the guide *Uploading a video*.",
  Playback:
    "How viewers play a stream, recording or asset from its playback id: the sources (HLS, MP4s, thumbnails, captions), with no API key. See the guide *Playback*.",
  "Access control":
    "Gate playback with a playback policy: viewers then bring a JWT signed with one of your signing keys, or an access key your webhook admits.",
  Tasks:
    "Tasks track background work (imports and uploads, exports, transcodes, clips): pending, running with progress, then completed or failed with its reason.",
  Webhooks: "Webhooks receive a signed POST for each event they subscribe to; every attempt is logged, and failed ones are retried. See the guide *Webhooks*.",
  Users: "Accounts: signing up, and who the caller is.",
  "API keys":
    "API keys authenticate requests (`Authorization: Bearer <key>`). A key is shown once, when it is created. A key created with allowed origins may only create upload URLs, from web pages on those origins.",
  Operations: "The deployment itself: health, media nodes, and this document.",
  Metrics:
    "Who watched, for how long and how well: views, watch time, time to first frame, rebuffering and errors, from the beacons players send (Castline's player sends them; others can, see the guide *Viewer analytics*), in the shapes of Livepeer's viewership API; and the account's usage.",
};

export const OPERATIONS: OperationReference = {
  createStream: {
    description:
      "Creates a stream with its stream key (for the encoder) and playback id (for viewers). `profiles` are the renditions transcoded while it is live, beside the source; `record: true` records every broadcast into an asset.",
    example: {
      name: "Morning show",
      record: true,
      profiles: [
        { name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 },
        { name: "360p", width: 640, height: 360, bitrate: 800_000, fps: 30 },
      ],
    },
  },
  listStreams: {
    description:
      "The account's streams, newest first unless `order` says otherwise, and the child session objects of past broadcasts unless `streamsonly=1`. `filters` searches by name and filters by state, over the whole account. See the guide *Lists and pagination*.",
  },
  getStream: {
    description: "A stream, with its state (`isActive`), counters and, while live, the ingest's `health`.",
  },
  updateStream: {
    description:
      "Changes what the spec lets change (`record`, `suspended`, `multistream`, `playbackPolicy`) and, Castline's additions, `name` and `profiles`. `profiles` change only while the stream is idle (409 while live); the next broadcast uses them. `suspended: true` cuts a live broadcast within about a second. Multistream changes apply to a live broadcast within a second.",
    example: { name: "Morning show (weekdays)", multistream: { targets: [{ id: EXAMPLE_IDS.targetId, profile: "720p" }] } },
  },
  rotateStreamKey: {
    description:
      "Gives the stream a new stream key (Castline's own operation) and answers the stream with it. The old key is refused from now on, and a broadcast published with it is cut within about a second. The playback id does not change.",
  },
  deleteStream: {
    description: "Removes the stream and its sessions from the API and cuts a live broadcast. Its recordings stay playable.",
  },
  setStreamRecord: {
    description: "Turns recording of the next broadcasts on or off. Only parent streams, not session objects.",
    example: { record: true },
  },
  listIngests: {
    description: "The RTMP URLs of the healthy media nodes, least loaded first: encoders publish to `<ingest>/<stream key>`. No API key.",
  },
  listStreamSessions: {
    description: "A stream's broadcasts, newest first; `record=1` lists only the recorded ones.",
  },
  listSessions: {
    description: "Every broadcast of the account's streams, newest first.",
  },
  getSessionHealth: {
    description:
      "The ingest health over a broadcast, live or after it ended: per time bucket (5 s for the first hour, wider for long broadcasts), the average bitrate, the lowest frame rate and the longest keyframe interval the encoder sent, and `issues`: the readings the encoder should fix, in plain words (keyframes more than 2 s apart or irregular, frame-rate drops, a bitrate far below the top rendition's). Not in Livepeer's API.",
  },
  getSession: {
    description:
      "A broadcast: when it started and how long it ran, its counters, and for recorded ones `recordingStatus` (`waiting`, then `ready`), `recordingUrl` (HLS) and `mp4Url`.",
  },
  createClip: {
    description:
      "Clips a stream or an asset by its playback id; the clip becomes a new asset, made by a clip task, and both are answered at once. For a stream, times are Unix ms as players show them: a live stream's last `LIVE_DVR_WINDOW_S` seconds, or a session's recording (`sessionId`, else the latest). For an asset (not in Livepeer's API), times are ms from its start. Cuts are frame-accurate. A range outside what is kept is refused, and nothing is created.",
    example: { playbackId: EXAMPLE_IDS.assetPlaybackId, startTime: 0, endTime: 2000, name: "Opening" },
  },
  listStreamClips: {
    description: "Clip assets made from any of a stream's sessions, newest first.",
  },
  listSessionClips: {
    description: "Clip assets made from one session, newest first.",
  },
  createTarget: {
    description:
      "Stores another service's ingest URL (rtmp, rtmps or srt, with its stream key) as a target, to attach to streams with `PATCH /stream/{id}`. The URL is never returned. A URL that reaches a private address is a 400, unless the deployment allows them.",
    example: { name: "YouTube", url: "rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop" },
  },
  listTargets: {
    description: "The account's multistream targets, without their URLs.",
  },
  getTarget: {
    description:
      "A multistream target, without its URL: `host` (host and port, never the path that holds the stream key) and `streams`, the streams that send to it (not in Livepeer's API).",
  },
  getMultistreamStatus: {
    description:
      "Each multistream target attached to the stream, with its `host` and `state`: `offline` while the stream is idle, `disabled`, `waiting`, then during a broadcast `connecting`, `connected`, `retrying` (with `error`, the push's last error with the key removed, and `retryAt`, the next attempt's time), `error` or `disconnected`. `checkedAt` is the server's time, for counting down to `retryAt`. Not in Livepeer's API.",
  },
  updateTarget: {
    description:
      "Renames a target, replaces its URL, or disables it. A disabled target is skipped by every stream that uses it; changes reach live broadcasts within a second.",
    example: { name: "YouTube (main channel)", disabled: false },
  },
  deleteTarget: {
    description: "Deletes a target. A target still attached to a stream is a 400 naming the streams.",
  },
  listAssets: {
    description:
      "The account's assets, newest first unless `order` says otherwise; `filters` searches by name and filters by status, source and duration, over the whole account. See the guide *Lists and pagination*.",
  },
  getAsset: {
    description:
      "An asset: its `status.phase` (`waiting`, `uploading`, `processing`, `ready`, `failed`), `playbackId` and `playbackUrl` once playable, `downloadUrl`, `videoSpec`, hashes, and the renditions of its ladder.",
  },
  updateAsset: {
    description:
      "Renames an asset or changes who may watch it (`playbackPolicy`; `null` makes it public). Answers the asset, as the SDK's `asset.update` expects.",
    example: { name: "Holiday in Lisbon" },
  },
  deleteAsset: {
    description: "Removes an asset from the API. Its playback and download URLs keep working, as the spec says.",
  },
  requestUpload: {
    description:
      "Creates an asset waiting for its file and answers where to send it: `url`, a pre-signed URL to PUT the file to (no API key), and `tusEndpoint` for resumable uploads; with the asset and its import task. Call it from your backend, and hand the URL to the browser or device that has the file. See the guide *Uploading a video*.",
    example: { name: "Holiday in Lisbon", staticMp4: true },
  },
  uploadDirect: {
    description:
      "The `url` of `POST /asset/request-upload`: PUT the file as the request body. The signed token in the URL is the permission: no API key. Answers once the file is stored; processing follows. 403 when the token is tampered with or expired, 409 when the asset already has its file or another upload holds it, 413 over the deployment's size limit.",
  },
  uploadTusCreate: {
    description:
      "The `tusEndpoint` of `POST /asset/request-upload` (tus 1.0, with its token in the query): creates a resumable upload for that asset. Use any tus client (tus-js-client, Uppy).",
  },
  uploadTusOffset: {
    description: "tus 1.0: how many bytes of the upload are stored, to resume from there.",
  },
  uploadTusAppend: {
    description: "tus 1.0: appends bytes at the upload's offset. The last append completes the upload and the asset's processing starts.",
  },
  uploadTusCancel: {
    description: "tus 1.0: abandons an upload and removes its stored parts.",
  },
  importAsset: {
    description:
      "Creates an asset from a file at a public URL, downloaded in the background (up to 5 redirects, private addresses refused). Answers at once with the asset and its import task: follow the task.",
    example: { name: "Big Buck Bunny", url: "https://example.com/videos/big-buck-bunny.mp4" },
  },
  importAssetViaUrl: {
    description: "The same as `POST /asset/import`, at Livepeer's path (the SDK's `asset.createViaUrl`).",
    example: { name: "Big Buck Bunny", url: "https://example.com/videos/big-buck-bunny.mp4" },
  },
  exportAsset: {
    description:
      "Exports a ready asset: to IPFS (CIDs computed here as kubo's defaults do, served by this deployment's gateway, and pinned to Pinata when `pinning` credentials are given) or to a URL of yours (`custom`, PUT or POST). Answers the export task. On IPFS a file is public to anyone with its CID, so an asset whose playback policy limits its viewers (JWT, webhook or allowed origins) is not exported there (400).",
    example: { ipfs: { nftMetadata: { description: "Our first show" } } },
  },
  createTextTrack: {
    description:
      "Adds captions to a ready asset: send JSON `{language, name?, url}` to have them fetched, or the WebVTT or SRT file itself as the body (`Content-Type: text/vtt`, `application/x-subrip` or `text/plain`) with `?language=` and `&name=`. The file is checked; a bad one is a 422 naming the line. Captions are listed in the master playlist and the player.",
  },
  listTextTracks: {
    description: "An asset's caption tracks, each with its public WebVTT `url`.",
  },
  deleteTextTrack: {
    description: "Removes a caption track from the asset and its playlists.",
  },
  getPlaybackInfo: {
    description:
      "How to play a live stream, a recording or an asset, by playback id: its sources (HLS, MP4s, thumbnails, captions). No API key; open to every origin, unless the content's policy lists `allowedOrigins`. Gated content needs the viewer's JWT (`?jwt=` or `Livepeer-Jwt`) or access key (`?accessKey=` or `Livepeer-Access-Key`); its URLs then carry a short-lived playback token. See the guide *Playback*.",
  },
  getRealtimeViewership: {
    description:
      "Views of the account's content playing now (a beacon within the last 30 s, not ended), with the share that met an error; `breakdownBy[]` by playbackId, device, browser, country.",
  },
  getViewership: {
    description:
      "Views (play intents), minutes watched, time to first frame (mean, and Castline's median and 95th percentile), rebuffer ratio, error rate and exits before the first frame, over `from`-`to` (RFC 3339 or ms since the epoch) by `timeStep` and `breakdownBy[]`. A view counts in the hour it began; rolled up every `VIEW_ROLLUP_EVERY_S` (10 s by default). `Accept: text/csv` answers a CSV file.",
  },
  getCreatorViewership: {
    description: "Views and minutes watched of one stream or asset (`streamId` or `assetId`, exactly one), over a range, by time step and breakdowns.",
  },
  getPublicViewership: {
    description: "Every view of a playback id and its minutes watched, for a public counter on a page: no API key. Unknown playback ids have 0.",
  },
  getUsage: {
    description:
      "The account's minutes over a range (ms since the epoch): `DeliveryUsageMins` watched by its viewers, `TotalUsageMins` transcoded (uploads, broadcasts), `StorageUsageMins` stored now.",
  },
  createSigningKey: {
    description: `Creates an ES256 key pair for signing viewers' playback JWTs (at most ${MAX_SIGNING_KEYS} per account). The private key is in this answer only; Castline keeps the public key.`,
    example: { name: "Web player" },
  },
  listSigningKeys: {
    description: "The account's signing keys, public halves only.",
  },
  getSigningKey: {
    description: "A signing key, public half only.",
  },
  updateSigningKey: {
    description: "Renames a signing key, or disables it (JWTs it signed stop admitting viewers at once) or enables it again.",
    example: { name: "Web player (2026)", disabled: false },
  },
  deleteSigningKey: {
    description: "Deletes a signing key: JWTs it signed no longer admit anyone.",
  },
  listTasks: {
    description: "The account's tasks, newest first unless `order` says otherwise; `filters` by type and phase.",
  },
  getTask: {
    description:
      "A task: `status.phase` (`pending`, `running` with `status.progress`, `completed`, or `failed` with `status.errorMessage`), its parameters and output. Poll it to follow an upload, import, export or clip.",
  },
  createWebhook: {
    description:
      "Subscribes a URL of yours to events. The answer carries the webhook's signing secret (`sharedSecret`), once: keep it to verify deliveries. A URL that reaches a private address is a 400, unless the deployment allows them. See the guide *Webhooks*.",
    example: { name: "Backend", url: "https://example.com/castline/webhooks", events: ["stream.started", "stream.idle", "recording.ready", "asset.ready"] },
  },
  listWebhooks: {
    description: "The account's webhooks, with each one's last trigger and last failure.",
  },
  getWebhook: {
    description: "A webhook, with its last trigger and last failure (status code, error, and the start of the response).",
  },
  replaceWebhook: {
    description: "Replaces a webhook's name, URL and events. Its signing secret stays.",
    example: { name: "Backend", url: "https://example.com/castline/webhooks", events: ["stream.started", "stream.idle"] },
  },
  deleteWebhook: {
    description: "Deletes a webhook and answers it, as the livepeer SDK expects. Deliveries still queued for it are dropped.",
  },
  listDeliveries: {
    description: "Every delivery attempt to this webhook, newest first: the request sent, the response status and its first KiB, the duration and the error.",
  },
  getDelivery: {
    description: "One delivery attempt, with the request exactly as sent (headers and body).",
  },
  resendDelivery: {
    description: "Delivers a logged event again: the same event id (receivers de-duplicate on it), a new timestamp and signature. Queued; answers at once.",
  },
  testWebhook: {
    description:
      "Sends a sample of an event (`payload.sample: true`) through the real delivery path, signed, retried and logged like any other. Queued; answers at once.",
    example: { event: "stream.started" },
  },
  signUp: {
    description:
      "Creates an account (when the deployment allows sign-up). The answer does not tell whether the email already had an account: the same 201, and the existing account is left as it was.",
    example: { email: "ada@example.com", password: "violet-harbour-lantern-42", name: "Ada" },
  },
  getMe: {
    description: "The account the API key (or dashboard session) belongs to.",
  },
  listApiKeys: {
    description: "The account's API keys: names, the first characters of each key, creation and last use. Never the keys themselves.",
  },
  createApiKey: {
    description:
      "Creates an API key; the key is in this answer only. With `allowedOrigins`, the key is for web pages on those origins, and can only create upload URLs.",
    example: { name: "Backend" },
  },
  revokeApiKey: {
    description: "Revokes an API key: requests with it are refused from now on.",
  },
  getHealth: {
    description:
      "For load balancers: 200 while the app can serve requests (its database answers), with `status: degraded` when the object store, background work or media nodes are not ok; 503 otherwise. No API key.",
  },
  getOpenApi: {
    description: "This document, OpenAPI 3.1, generated from the same declarations and zod schemas that validate requests. No API key.",
  },
  listMediaNodes: {
    description:
      "The deployment's media nodes (RTMP ingest and transcoding): their ingest URL, health, load and live sessions. For operators only: accounts given the admin role with `npm run cli -- users set-role --email E --role admin`; others get a 403.",
  },
};
