// biome-ignore-all format: a table, one entry per line, read down its columns
import { z } from "zod";
import { SigningKey, SigningKeyCreate, SigningKeyCreated, SigningKeyPatch } from "@/lib/access/schema";
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from "@/lib/api-keys/schema";
import { Asset, AssetDeleteQuery, AssetListQuery, AssetPatch, AssetWithTask, ExportAsset, ExportStarted, ImportAsset, RequestUpload, TextTrack, TextTrackQuery, UploadReceived, UploadRequested } from "@/lib/assets/schema";
import { ClipPayload } from "@/lib/clips/schema";
import { Health } from "@/lib/health/schema";
import { Ingest } from "@/lib/live/schema";
import { MediaNode } from "@/lib/live/media-node";
import { mediaNodeOperations } from "@/lib/media-node-protocol";
import { PlaybackInfo } from "@/lib/playback/schema";
import { Session, SessionHealth, SessionListQuery } from "@/lib/sessions/schema";
import { RecordPatch, Stream, StreamCreate, StreamListQuery, StreamPatch } from "@/lib/streams/schema";
import { MultistreamStatus, Target, TargetCreate, TargetCreated, TargetPatch } from "@/lib/targets/schema";
import { Task, TaskListQuery } from "@/lib/tasks/schema";
import { SignUp, User, VerifySignUp } from "@/lib/users/schema";
import { QueuedDelivery, Webhook, WebhookCreated, WebhookDelivery, WebhookInput, WebhookTestRequest } from "@/lib/webhooks/schema";
import { PageQuery } from "@/lib/api/list-query";
import { CreatorViewsQuery, PublicViewership, RealtimeQuery, RealtimeViewershipMetric, UsageMetric, UsageQuery, ViewershipMetric, ViewsQuery } from "@/lib/analytics/schema";

/**
 * Every operation of the HTTP API, declared once: the request pipeline (lib/api/route.ts)
 * authenticates, parses and answers by it, and the OpenAPI document (lib/api/openapi.ts)
 * is generated from it. A route file binds a declaration to its handler; a test checks
 * that every route file's methods are declared here, and every declaration has a route.
 */
export interface Operation {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";
  /** Under /api, in OpenAPI's template form ("/stream/{id}"). */
  path: string;
  tag: string;
  summary: string;
  /** "user": an API key or a dashboard session. "none": public. "media": a media node (MEDIA_SECRET). */
  auth: "user" | "none" | "media";
  body?: z.ZodType;
  /** No body at all means `{}` (the SDK sends none where every field is optional). */
  emptyBody?: true;
  query?: z.ZodObject;
  /** Success status. */
  status: number;
  /** The success body's schema (the handler's value is checked against it in tests); none: no content. */
  response?: z.ZodType;
  /** The answer is a list of `response`'s items, paged by cursor with a Link header. */
  paged?: true;
  /** Client errors it may answer, besides 401 for authenticated operations. */
  errors?: readonly number[];
  /** Cache-Control of the success answer (e.g. "no-cache" for what players poll). */
  cacheControl?: string;
  /** Browsers on other sites call it: every answer (errors too) carries these CORS headers ("key": with a CORS-enabled API key, lib/api/cors.ts). */
  cors?: "public" | "upload" | "key";
  /** Not a JSON request (a file body, the tus protocol): the body is the handler's to read; without a response schema it answers with its own Response. */
  raw?: string;
  /** Between the app's own processes; left out of the public document. */
  internal?: true;
}

const PagedStreams = StreamListQuery.extend(PageQuery.shape);
const PagedSessions = SessionListQuery.extend(PageQuery.shape);
const PagedAssets = AssetListQuery.extend(PageQuery.shape);
const PagedTasks = TaskListQuery.extend(PageQuery.shape);
const Id = "/{id}";

export const operations = {
  // Streams
  createStream: { method: "POST", path: "/stream", tag: "Streams", summary: "Create a stream", auth: "user", body: StreamCreate, status: 201, response: Stream, errors: [400, 422] },
  listStreams: { method: "GET", path: "/stream", tag: "Streams", summary: "List streams", auth: "user", query: PagedStreams, status: 200, response: Stream, paged: true },
  getStream: { method: "GET", path: `/stream${Id}`, tag: "Streams", summary: "Retrieve a stream", auth: "user", status: 200, response: Stream, errors: [404] },
  updateStream: { method: "PATCH", path: `/stream${Id}`, tag: "Streams", summary: "Update a stream", auth: "user", body: StreamPatch, status: 204, errors: [400, 404, 409, 422] },
  rotateStreamKey: { method: "POST", path: `/stream${Id}/rotate-key`, tag: "Streams", summary: "Rotate the stream key", auth: "user", status: 200, response: Stream, errors: [400, 404] },
  deleteStream: { method: "DELETE", path: `/stream${Id}`, tag: "Streams", summary: "Delete a stream", auth: "user", status: 204, errors: [404] },
  setStreamRecord: { method: "PATCH", path: `/stream${Id}/record`, tag: "Streams", summary: "Turn recording on or off", auth: "user", body: RecordPatch, status: 204, errors: [400, 404, 422] },
  listIngests: { method: "GET", path: "/ingest", tag: "Streams", summary: "Where encoders publish", auth: "none", status: 200, response: z.array(Ingest) },
  // Sessions
  listStreamSessions: { method: "GET", path: `/stream${Id}/sessions`, tag: "Sessions", summary: "List a stream's sessions", auth: "user", query: PagedSessions, status: 200, response: Session, paged: true, errors: [404] },
  listSessions: { method: "GET", path: "/session", tag: "Sessions", summary: "List sessions", auth: "user", query: PageQuery, status: 200, response: Session, paged: true },
  getSession: { method: "GET", path: `/session${Id}`, tag: "Sessions", summary: "Retrieve a session", auth: "user", status: 200, response: Session, errors: [404] },
  getSessionHealth: { method: "GET", path: `/session${Id}/health`, tag: "Sessions", summary: "A session's ingest health", auth: "user", status: 200, response: SessionHealth, errors: [404], cacheControl: "no-cache" },

  createClip: { method: "POST", path: "/clip", tag: "Clips", summary: "Clip a stream or an asset", auth: "user", body: ClipPayload, status: 200, response: AssetWithTask, errors: [400, 404, 422] },
  listStreamClips: { method: "GET", path: `/stream${Id}/clips`, tag: "Clips", summary: "Clips of a stream's sessions", auth: "user", query: PageQuery, status: 200, response: Asset, paged: true, errors: [404] },
  listSessionClips: { method: "GET", path: `/session${Id}/clips`, tag: "Clips", summary: "Clips of a session", auth: "user", query: PageQuery, status: 200, response: Asset, paged: true, errors: [404] },
  // Multistream
  createTarget: { method: "POST", path: "/multistream/target", tag: "Multistream", summary: "Create a multistream target", auth: "user", body: TargetCreate, status: 201, response: TargetCreated, errors: [400, 422] },
  listTargets: { method: "GET", path: "/multistream/target", tag: "Multistream", summary: "List multistream targets", auth: "user", query: PageQuery, status: 200, response: Target, paged: true },
  getTarget: { method: "GET", path: `/multistream/target${Id}`, tag: "Multistream", summary: "Retrieve a multistream target", auth: "user", status: 200, response: Target, errors: [404] },
  updateTarget: { method: "PATCH", path: `/multistream/target${Id}`, tag: "Multistream", summary: "Update a multistream target", auth: "user", body: TargetPatch, status: 204, errors: [400, 404, 422] },
  getMultistreamStatus: { method: "GET", path: `/stream${Id}/multistream/status`, tag: "Multistream", summary: "What each target's push is doing", auth: "user", status: 200, response: MultistreamStatus, errors: [404] },
  deleteTarget: { method: "DELETE", path: `/multistream/target${Id}`, tag: "Multistream", summary: "Delete a multistream target", auth: "user", status: 204, errors: [400, 404] },
  // Assets
  listAssets: { method: "GET", path: "/asset", tag: "Assets", summary: "List assets", auth: "user", query: PagedAssets, status: 200, response: Asset, paged: true },
  getAsset: { method: "GET", path: `/asset${Id}`, tag: "Assets", summary: "Retrieve an asset", auth: "user", status: 200, response: Asset, errors: [404] },
  updateAsset: { method: "PATCH", path: `/asset${Id}`, tag: "Assets", summary: "Update an asset", auth: "user", body: AssetPatch, status: 200, response: Asset, errors: [400, 404, 422] },
  deleteAsset: { method: "DELETE", path: `/asset${Id}`, tag: "Assets", summary: "Delete an asset (purge=true: take it down)", auth: "user", query: AssetDeleteQuery, status: 204, errors: [404, 422] },
  requestUpload: { method: "POST", path: "/asset/request-upload", tag: "Assets", summary: "Request an upload URL", auth: "user", body: RequestUpload, status: 200, response: UploadRequested, errors: [403, 422], cors: "key" },
  uploadDirect: { method: "PUT", path: "/asset/upload/direct", tag: "Assets", summary: "Upload a file to its pre-signed URL", auth: "none", status: 200, response: UploadReceived, errors: [400, 403, 404, 409, 413], cors: "upload", raw: "the file's bytes (any content type)" },
  uploadTusCreate: { method: "POST", path: "/asset/upload/tus", tag: "Assets", summary: "tus: create a resumable upload", auth: "none", status: 201, errors: [403, 409, 413], cors: "upload", raw: "tus protocol" },
  uploadTusOffset: { method: "HEAD", path: "/asset/upload/tus/{uploadId}", tag: "Assets", summary: "tus: an upload's offset", auth: "none", status: 200, errors: [404], cors: "upload", raw: "tus protocol" },
  uploadTusAppend: { method: "PATCH", path: "/asset/upload/tus/{uploadId}", tag: "Assets", summary: "tus: append bytes", auth: "none", status: 204, errors: [404, 409, 413], cors: "upload", raw: "tus protocol" },
  uploadTusCancel: { method: "DELETE", path: "/asset/upload/tus/{uploadId}", tag: "Assets", summary: "tus: abandon an upload", auth: "none", status: 204, errors: [404], cors: "upload", raw: "tus protocol" },
  importAsset: { method: "POST", path: "/asset/import", tag: "Assets", summary: "Import a video from a URL", auth: "user", body: ImportAsset, status: 201, response: AssetWithTask, errors: [400, 422] },
  importAssetViaUrl: { method: "POST", path: "/asset/upload/url", tag: "Assets", summary: "Import a video from a URL (Livepeer's path)", auth: "user", body: ImportAsset, status: 201, response: AssetWithTask, errors: [400, 422] },
  exportAsset: { method: "POST", path: `/asset${Id}/export`, tag: "Assets", summary: "Export an asset", auth: "user", body: ExportAsset, status: 201, response: ExportStarted, errors: [400, 404, 422] },
  createTextTrack: { method: "POST", path: `/asset${Id}/text-tracks`, tag: "Assets", summary: "Add captions", auth: "user", query: TextTrackQuery, status: 201, response: TextTrack, errors: [400, 404, 413, 415, 422], raw: "JSON {language, name?, url}, or a WebVTT or SRT file" },
  listTextTracks: { method: "GET", path: `/asset${Id}/text-tracks`, tag: "Assets", summary: "List an asset's caption tracks", auth: "user", status: 200, response: z.array(TextTrack), errors: [404] },
  deleteTextTrack: { method: "DELETE", path: `/asset${Id}/text-tracks/{trackId}`, tag: "Assets", summary: "Remove a caption track", auth: "user", status: 204, errors: [404] },
  // Playback
  getPlaybackInfo: { method: "GET", path: "/playback/{playbackId}", tag: "Playback", summary: "Get playback info", auth: "none", status: 200, response: PlaybackInfo, errors: [401, 403, 404, 503], cors: "public", cacheControl: "no-cache" },
  // Viewership and usage (Livepeer's metrics.*: from the beacons of players, lib/analytics). The query operations answer CSV to Accept: text/csv.
  getRealtimeViewership: { method: "GET", path: "/data/views/now", tag: "Metrics", summary: "Views playing now", auth: "user", query: RealtimeQuery, status: 200, response: z.array(RealtimeViewershipMetric), errors: [422], cacheControl: "no-store" },
  getViewership: { method: "GET", path: "/data/views/query", tag: "Metrics", summary: "Views, watch time and quality of experience over a range", auth: "user", query: ViewsQuery, status: 200, response: z.array(ViewershipMetric), errors: [404, 422], cacheControl: "no-store" },
  getCreatorViewership: { method: "GET", path: "/data/views/query/creator", tag: "Metrics", summary: "Views and watch time of one stream or asset (assetId or streamId)", auth: "user", query: CreatorViewsQuery, status: 200, response: z.array(ViewershipMetric), errors: [404, 422], cacheControl: "no-store" },
  getPublicViewership: { method: "GET", path: "/data/views/query/total/{playbackId}", tag: "Metrics", summary: "Every view of a playback id and its minutes (public)", auth: "none", status: 200, response: PublicViewership, cors: "public", cacheControl: "public, max-age=10" },
  getUsage: { method: "GET", path: "/data/usage/query", tag: "Metrics", summary: "Minutes delivered, transcoded and stored", auth: "user", query: UsageQuery, status: 200, response: UsageMetric, errors: [422], cacheControl: "no-store" },
  // Access control
  createSigningKey: { method: "POST", path: "/access-control/signing-key", tag: "Access control", summary: "Create a signing key", auth: "user", body: SigningKeyCreate, emptyBody: true, status: 200, response: SigningKeyCreated, errors: [400, 422] },
  listSigningKeys: { method: "GET", path: "/access-control/signing-key", tag: "Access control", summary: "List signing keys (public keys only)", auth: "user", status: 200, response: z.array(SigningKey) },
  getSigningKey: { method: "GET", path: `/access-control/signing-key${Id}`, tag: "Access control", summary: "Retrieve a signing key", auth: "user", status: 200, response: SigningKey, errors: [404] },
  updateSigningKey: { method: "PATCH", path: `/access-control/signing-key${Id}`, tag: "Access control", summary: "Update a signing key", auth: "user", body: SigningKeyPatch, status: 204, errors: [400, 404, 422] },
  deleteSigningKey: { method: "DELETE", path: `/access-control/signing-key${Id}`, tag: "Access control", summary: "Delete a signing key", auth: "user", status: 204, errors: [404] },
  // Tasks
  listTasks: { method: "GET", path: "/task", tag: "Tasks", summary: "List tasks", auth: "user", query: PagedTasks, status: 200, response: Task, paged: true },
  getTask: { method: "GET", path: `/task${Id}`, tag: "Tasks", summary: "Retrieve a task", auth: "user", status: 200, response: Task, errors: [404] },
  // Webhooks
  createWebhook: { method: "POST", path: "/webhook", tag: "Webhooks", summary: "Create a webhook", auth: "user", body: WebhookInput, status: 200, response: WebhookCreated, errors: [400, 422] },
  listWebhooks: { method: "GET", path: "/webhook", tag: "Webhooks", summary: "List webhooks", auth: "user", query: PageQuery, status: 200, response: Webhook, paged: true },
  getWebhook: { method: "GET", path: `/webhook${Id}`, tag: "Webhooks", summary: "Retrieve a webhook", auth: "user", status: 200, response: Webhook, errors: [404] },
  replaceWebhook: { method: "PUT", path: `/webhook${Id}`, tag: "Webhooks", summary: "Replace a webhook", auth: "user", body: WebhookInput, status: 200, response: Webhook, errors: [400, 404, 422] },
  deleteWebhook: { method: "DELETE", path: `/webhook${Id}`, tag: "Webhooks", summary: "Delete a webhook", auth: "user", status: 200, response: Webhook, errors: [404] },
  listDeliveries: { method: "GET", path: `/webhook${Id}/log`, tag: "Webhooks", summary: "List delivery attempts", auth: "user", query: PageQuery, status: 200, response: WebhookDelivery, paged: true, errors: [404] },
  getDelivery: { method: "GET", path: `/webhook${Id}/log/{logId}`, tag: "Webhooks", summary: "One delivery attempt", auth: "user", status: 200, response: WebhookDelivery, errors: [404] },
  resendDelivery: { method: "POST", path: `/webhook${Id}/log/{logId}/resend`, tag: "Webhooks", summary: "Resend a delivery", auth: "user", status: 202, response: QueuedDelivery, errors: [400, 404] },
  testWebhook: { method: "POST", path: `/webhook${Id}/test`, tag: "Webhooks", summary: "Send a test event", auth: "user", body: WebhookTestRequest, status: 202, response: QueuedDelivery, errors: [404, 422] },
  // Users and keys
  signUp: { method: "POST", path: "/user", tag: "Users", summary: "Sign up", auth: "none", body: SignUp, status: 201, response: User, errors: [403, 422] },
  // The page a mailed sign-up link opens calls it (lib/users/sign-up.ts); the link's token is all it takes.
  verifySignUp: { method: "POST", path: "/user/verify", tag: "Users", summary: "Make the account of a mailed sign-up link", auth: "none", body: VerifySignUp, status: 201, response: User, errors: [400, 409, 422], internal: true },
  getMe: { method: "GET", path: "/user/me", tag: "Users", summary: "Who am I", auth: "user", status: 200, response: User },
  listApiKeys: { method: "GET", path: "/api-key", tag: "API keys", summary: "List API keys", auth: "user", status: 200, response: z.array(ApiKey) },
  createApiKey: { method: "POST", path: "/api-key", tag: "API keys", summary: "Create an API key", auth: "user", body: ApiKeyCreate, status: 201, response: ApiKeyCreated, errors: [422] },
  revokeApiKey: { method: "DELETE", path: `/api-key${Id}`, tag: "API keys", summary: "Revoke an API key", auth: "user", status: 204, errors: [404] },
  // Operations
  getHealth: { method: "GET", path: "/health", tag: "Operations", summary: "Health check", auth: "none", status: 200, response: Health, errors: [503], cacheControl: "no-store" },
  getOpenApi: { method: "GET", path: "/openapi.json", tag: "Operations", summary: "This OpenAPI document", auth: "none", status: 200, cors: "public", raw: "an OpenAPI 3.1 document" },
  // Media nodes (internal): lib/media-node-protocol.ts
  ...mediaNodeOperations,
  listMediaNodes: { method: "GET", path: "/media-node", tag: "Operations", summary: "List media nodes (operators: accounts with the admin role)", auth: "user", status: 200, response: z.array(MediaNode), errors: [403] },
} as const satisfies Record<string, Operation>;

export type Operations = typeof operations;
