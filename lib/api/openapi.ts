import { z } from "zod";
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from "@/lib/api-keys/schema";
import { Asset, AssetWithTask, ExportAsset, ExportStarted, ImportAsset, RequestUpload, UploadRequested } from "@/lib/assets/schema";
import { Session, SessionListQuery } from "@/lib/sessions/schema";
import { RecordPatch, Stream, StreamCreate, StreamListQuery, StreamPatch } from "@/lib/streams/schema";
import { Target, TargetCreate, TargetCreated, TargetPatch } from "@/lib/targets/schema";
import { Task } from "@/lib/tasks/schema";
import { SignUp, User } from "@/lib/users/schema";
import { Webhook, WebhookCreated, WebhookDelivery, WebhookInput, WebhookTestRequest } from "@/lib/webhooks/schema";
import { Ingest } from "@/lib/live/ingest";
import { PageQuery } from "./pagination";

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate
 * requests and describe responses. Adding an endpoint means adding a line here.
 */
interface Operation {
  summary: string;
  tag: string;
  auth?: false;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** Success status and body (undefined body: no content). */
  status: number;
  response?: z.ZodType;
  errors?: number[];
}

const list = (item: z.ZodType) => z.array(item);
const Queued = z.object({ eventId: z.string(), event: z.string() }).meta({ id: "QueuedDelivery" });

const operations: Record<string, Record<string, Operation>> = {
  "/stream": {
    post: { tag: "Streams", summary: "Create a stream", body: StreamCreate, status: 201, response: Stream, errors: [400, 422] },
    get: { tag: "Streams", summary: "List streams (and historic session objects unless streamsonly=1)", query: StreamListQuery.extend(PageQuery.shape), status: 200, response: list(Stream) },
  },
  "/stream/{id}": {
    get: { tag: "Streams", summary: "Retrieve a stream", status: 200, response: Stream, errors: [404] },
    patch: { tag: "Streams", summary: "Update record, suspended or multistream targets", body: StreamPatch, status: 204, errors: [400, 404, 422] },
    delete: { tag: "Streams", summary: "Delete a stream", status: 204, errors: [404] },
  },
  "/stream/{id}/record": {
    patch: { tag: "Streams", summary: "Turn recording on or off (parent streams only)", body: RecordPatch, status: 204, errors: [400, 404, 422] },
  },
  "/stream/{id}/sessions": {
    get: { tag: "Sessions", summary: "List a stream's sessions (record=1: recorded only)", query: SessionListQuery.extend(PageQuery.shape), status: 200, response: list(Session), errors: [404] },
  },
  "/session": { get: { tag: "Sessions", summary: "List sessions", query: PageQuery, status: 200, response: list(Session) } },
  "/session/{id}": { get: { tag: "Sessions", summary: "Retrieve a session", status: 200, response: Session, errors: [404] } },
  "/multistream/target": {
    post: { tag: "Multistream", summary: "Create a multistream target", body: TargetCreate, status: 201, response: TargetCreated, errors: [422] },
    get: { tag: "Multistream", summary: "List multistream targets (url is never returned)", query: PageQuery, status: 200, response: list(Target) },
  },
  "/multistream/target/{id}": {
    get: { tag: "Multistream", summary: "Retrieve a multistream target", status: 200, response: Target, errors: [404] },
    patch: { tag: "Multistream", summary: "Update a multistream target", body: TargetPatch, status: 204, errors: [404, 422] },
    delete: { tag: "Multistream", summary: "Delete a target no stream references", status: 204, errors: [400, 404] },
  },
  "/asset": { get: { tag: "Assets", summary: "List assets", query: PageQuery, status: 200, response: list(Asset) } },
  "/asset/request-upload": {
    post: { tag: "Assets", summary: "Create a waiting asset and get a pre-signed URL (PUT the file there, no API key) and a tus endpoint", body: RequestUpload, status: 200, response: UploadRequested, errors: [422] },
  },
  "/asset/import": {
    post: { tag: "Assets", summary: "Import a file from a URL (downloaded in the background; follow the task)", body: ImportAsset, status: 201, response: AssetWithTask, errors: [400, 422] },
  },
  "/asset/{id}/export": {
    post: { tag: "Assets", summary: "Export a ready asset to IPFS or to a custom URL (spawns an export task)", body: ExportAsset, status: 201, response: ExportStarted, errors: [400, 404, 422] },
  },
  "/asset/{id}": {
    get: { tag: "Assets", summary: "Retrieve an asset", status: 200, response: Asset, errors: [404] },
    delete: { tag: "Assets", summary: "Delete an asset from the API (its URLs keep working)", status: 204, errors: [404] },
  },
  "/task": { get: { tag: "Tasks", summary: "List tasks, most recent first", query: PageQuery, status: 200, response: list(Task) } },
  "/task/{id}": { get: { tag: "Tasks", summary: "Retrieve a task", status: 200, response: Task, errors: [404] } },
  "/webhook": {
    post: { tag: "Webhooks", summary: "Create a webhook (the response carries its signing secret, once)", body: WebhookInput, status: 200, response: WebhookCreated, errors: [422] },
    get: { tag: "Webhooks", summary: "List webhooks", query: PageQuery, status: 200, response: list(Webhook) },
  },
  "/webhook/{id}": {
    get: { tag: "Webhooks", summary: "Retrieve a webhook", status: 200, response: Webhook, errors: [404] },
    put: { tag: "Webhooks", summary: "Replace a webhook", body: WebhookInput, status: 200, response: Webhook, errors: [404, 422] },
    delete: { tag: "Webhooks", summary: "Delete a webhook", status: 200, response: Webhook, errors: [404] },
  },
  "/webhook/{id}/log": {
    get: { tag: "Webhooks", summary: "Delivery attempts, newest first", query: PageQuery, status: 200, response: list(WebhookDelivery), errors: [404] },
  },
  "/webhook/{id}/log/{logId}": {
    get: { tag: "Webhooks", summary: "One delivery attempt", status: 200, response: WebhookDelivery, errors: [404] },
  },
  "/webhook/{id}/log/{logId}/resend": {
    post: { tag: "Webhooks", summary: "Deliver a logged event again (same event id, new signature)", status: 202, response: Queued, errors: [404] },
  },
  "/webhook/{id}/test": {
    post: { tag: "Webhooks", summary: "Send a sample event through the delivery path", body: WebhookTestRequest, status: 202, response: Queued, errors: [404, 422] },
  },
  "/ingest": { get: { tag: "Streams", summary: "Where encoders publish (no auth)", auth: false, status: 200, response: list(Ingest) } },
  "/user": { post: { tag: "Users", summary: "Sign up (no auth; ALLOW_SIGNUP)", auth: false, body: SignUp, status: 201, response: User, errors: [400, 403, 422] } },
  "/user/me": { get: { tag: "Users", summary: "The caller", status: 200, response: User } },
  "/api-key": {
    get: { tag: "API keys", summary: "List API keys", status: 200, response: list(ApiKey) },
    post: { tag: "API keys", summary: "Create an API key (shown once)", body: ApiKeyCreate, status: 201, response: ApiKeyCreated, errors: [422] },
  },
  "/api-key/{id}": { delete: { tag: "API keys", summary: "Revoke an API key", status: 204, errors: [404] } },
};

const ErrorBody = z.object({ errors: z.array(z.string()) }).meta({ id: "Error" });
const ERROR_TEXT: Record<number, string> = {
  400: "Business rule violated",
  401: "Missing or invalid API key",
  403: "Not allowed",
  404: "Unknown id (or another user's object)",
  422: "Schema validation failed",
};

/** Named schemas (zod `.meta({ id })`) are hoisted into components and referenced. */
function schemaCollector() {
  const components: Record<string, unknown> = {};
  const schemaOf = (schema: z.ZodType, io: "input" | "output") => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    delete json.$schema;
    const rewrite = (value: unknown) =>
      JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
    for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def);
    return rewrite(json);
  };
  return { components, schemaOf };
}

export function openApiDocument(serverUrl: string) {
  const { components, schemaOf } = schemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(operations)) {
    paths[path] = {};
    for (const [method, op] of Object.entries(methods)) {
      const responses: Record<string, unknown> = {
        [op.status]: op.response
          ? { description: "Success", content: { "application/json": { schema: schemaOf(op.response, "output") } } }
          : { description: "No content" },
      };
      for (const code of [...(op.auth === false ? [] : [401]), ...(op.errors ?? [])]) {
        responses[code] = { description: ERROR_TEXT[code], content: { "application/json": { schema: schemaOf(ErrorBody, "output") } } };
      }
      const querySchema = op.query ? (schemaOf(op.query, "input") as { properties?: Record<string, unknown> }) : undefined;
      paths[path][method] = {
        tags: [op.tag],
        summary: op.summary,
        ...(op.auth === false ? { security: [] } : {}),
        parameters: [
          ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } })),
          ...Object.entries(querySchema?.properties ?? {}).map(([name, schema]) => ({ name, in: "query", schema })),
        ],
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(op.body, "input") } } } } : {}),
        responses,
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Castline API",
      version: "1.0.0",
      description: "Live streaming and video on demand. Authenticate with `Authorization: Bearer <API key>`.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: { schemas: components, securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    paths,
  };
}
