import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { invalid } from "@/lib/errors";
import { objects } from "@/lib/storage";

/**
 * Live HLS and recording segments of a media node that cannot reach the bucket
 * itself (no S3_* on it): streamed into the deployment's store as they come.
 */
export const PUT = route(operations.storeMediaObject, async ({ req, query }) => {
  if (!req.body) throw invalid("the object's bytes are the request body");
  await objects().write(query.key, Readable.fromWeb(req.body as ReadableStream<Uint8Array>));
  return new Response(null, { status: 204 });
});

export const DELETE = route(operations.removeMediaObjects, ({ query }) => objects().removePrefix(query.prefix));
