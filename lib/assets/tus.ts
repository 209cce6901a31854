import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { Server } from "@tus/server";
import { ApiError } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { publicOrigin } from "@/lib/origin";
import { claimForUpload, receiveUpload } from "./upload";
import { verifyUploadToken } from "./upload-token";

export const TUS_PATH = "/api/asset/upload/tus";

/** "<assetId>.<128 random bits>": the upload's URL is its permission after creation. */
const UPLOAD_ID = /^([\w-]{1,64})\.[0-9a-f]{32}$/;

/** tus-server answers errors it is given in this shape. */
const refuse = (status: number, message: string) => ({ status_code: status, body: JSON.stringify({ errors: [message] }) });

let server: Server | undefined;

/**
 * Resumable uploads (tus 1.0) for the same assets as the pre-signed URL: the
 * creation POST carries the request-upload token, later requests the upload's
 * unguessable URL. Parts land on local disk (DATA_DIR/tus); a finished upload
 * streams into the object store like a PUT and processing starts.
 */
export function tusServer(): Server {
  if (server) return server;
  const directory = path.join(config().dataDir, "tus");
  fs.mkdirSync(directory, { recursive: true });
  const datastore = new FileStore({ directory });
  server = new Server({
    path: TUS_PATH,
    datastore,
    maxSize: config().MAX_UPLOAD_BYTES,
    generateUrl: (_req, { id }) => `${publicOrigin()}${TUS_PATH}/${id}`,
    namingFunction: (req) => {
      const token = verifyUploadToken(new URL(req.url).searchParams.get("token"));
      if (!token.ok) throw refuse(403, token.reason);
      return `${token.assetId}.${randomBytes(16).toString("hex")}`;
    },
    onIncomingRequest: async (req, id) => {
      if (req.method !== "POST" && !UPLOAD_ID.test(id)) throw refuse(404, "no such upload");
    },
    onUploadCreate: async (_req, upload) => {
      await asTusError(() => claimForUpload(assetOf(upload.id)));
      return {};
    },
    onUploadFinish: async (_req, upload) => {
      const file = path.join(directory, upload.id);
      await asTusError(() => receiveUpload(assetOf(upload.id), fs.createReadStream(file)));
      await datastore.remove(upload.id);
      return {};
    },
  });
  return server;
}

const assetOf = (uploadId: string) => UPLOAD_ID.exec(uploadId)![1];

async function asTusError(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ApiError) throw refuse(err.status, err.messages.join("; "));
    throw err;
  }
}
