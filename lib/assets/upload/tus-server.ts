import { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Server } from "@tus/server";
import { REFUSAL_STATUS } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { Refusal } from "@/lib/errors";
import { publicOrigin } from "@/lib/origin";
import { claimForUpload, releaseUpload, renewUpload, UploadLease } from "./lease";
import { receiveTusUpload } from "./receive";
import { verifyUploadToken } from "./token";
import { PgLocker } from "./tus-locker";
import { assetOfTusUpload, newTusUploadId, tusStore, tusUploadOfSegment, tusUrlSegment } from "./tus-store";

export const TUS_PATH = "/api/asset/upload/tus";

/** tus-server answers errors it is given in this shape. */
const refuse = (status: number, message: string) => ({ status_code: status, body: JSON.stringify({ errors: [message] }) });

/** The lease kept by each request that carries bytes, for the hooks that learn its upload. */
const leases = new WeakMap<Request, UploadLease>();

let server: Server | undefined;

/**
 * Resumable uploads (tus 1.0) for the same assets as the pre-signed URL: the
 * creation POST carries the request-upload token, later requests the upload's
 * unguessable URL. A tus upload holds its asset as a PUT does, under a lease
 * that its bytes renew (each PATCH takes the asset again if it is free); once
 * the lease lapses another upload may take the asset over, which removes this
 * one. A finished upload streams into the object store and processing starts.
 * Any app instance serves any request: parts are in the bucket (with S3) and the
 * lock on an upload is PostgreSQL's (lib/assets/upload/tus-locker.ts).
 */
function tusServer(): Server {
  if (server) return server;
  server = new Server({
    path: TUS_PATH,
    datastore: tusStore(),
    locker: new PgLocker(config().DATABASE_URL!),
    maxSize: config().MAX_UPLOAD_BYTES,
    generateUrl: (_req, { id }) => `${publicOrigin()}${TUS_PATH}/${tusUrlSegment(id)}`,
    getFileIdFromRequest: (_req, segment) => (segment ? tusUploadOfSegment(segment) : undefined),
    namingFunction: (req) => {
      const token = verifyUploadToken(new URL(req.url).searchParams.get("token"));
      if (!token.ok) throw refuse(403, token.reason);
      return newTusUploadId(token.assetId);
    },
    onIncomingRequest: async (req, id) => {
      if (req.method === "POST") return;
      const assetId = assetOfTusUpload(id);
      if (!assetId) throw refuse(404, "no such upload");
      if (req.method === "PATCH") await asTusError(() => holdForPatch(req, assetId, id));
      if (req.method === "DELETE") await releaseUpload(assetId, id);
    },
    onUploadCreate: async (req, upload) => {
      const assetId = assetOfTusUpload(upload.id)!;
      await asTusError(() => claimForUpload(assetId, upload.id));
      leases.get(req)?.hold(assetId, upload.id);
      return {};
    },
    onUploadFinish: async (_req, upload) => {
      await asTusError(() => receiveTusUpload(assetOfTusUpload(upload.id)!, upload.id));
      return {};
    },
    // A body ended by its lease (stalled, or the asset lost) says why, not tus's generic abort.
    onResponseError: (req) => {
      const failure = leases.get(req)?.failure;
      if (failure) return refuse(REFUSAL_STATUS[failure.kind], failure.message);
    },
  });
  return server;
}

/** A PATCH keeps its upload's claim, or takes the asset again if no other upload holds it. */
async function holdForPatch(req: Request, assetId: string, uploadId: string) {
  // An upload that lost its asset was removed: answer 404 before touching the asset.
  await tusStore().getUpload(uploadId);
  if (!(await renewUpload(assetId, uploadId))) await claimForUpload(assetId, uploadId);
  leases.get(req)?.hold(assetId, uploadId);
}

/** Requests with bytes (PATCH, a POST with its first bytes) stream through their upload's lease. */
export function handleTus(req: Request): Promise<Response> {
  const carriesBytes = req.method === "PATCH" || (req.method === "POST" && req.headers.get("content-type") === "application/offset+octet-stream");
  if (!carriesBytes || !req.body) return tusServer().handleWeb(req);
  const lease = new UploadLease();
  const leased = new Request(req.url, {
    method: req.method,
    headers: req.headers,
    body: NodeReadableStream.from(lease.watch(req.body as NodeReadableStream<Uint8Array>)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  leases.set(leased, lease);
  return tusServer().handleWeb(leased);
}

async function asTusError(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    if (err instanceof Refusal) throw refuse(REFUSAL_STATUS[err.kind], err.message);
    throw err;
  }
}
