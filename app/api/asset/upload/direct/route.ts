import type { ReadableStream } from "node:stream/web";
import { preflight } from "@/lib/api/cors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { receiveSignedUpload } from "@/lib/assets/upload/receive";

/**
 * PUT <the url from request-upload>: the raw file, no API key (the signed token
 * in the URL is the permission, for one asset until it expires or an upload
 * to it completes). The body streams to storage; nothing holds it in memory.
 */
export const PUT = route(operations.uploadDirect, async ({ req }) => ({
  asset: await receiveSignedUpload(
    new URL(req.url).searchParams.get("token"),
    Number(req.headers.get("content-length") ?? 0),
    req.body as ReadableStream<Uint8Array> | null,
  ),
}));

export const OPTIONS = preflight("upload");
