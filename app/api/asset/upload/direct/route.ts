import type { ReadableStream } from "node:stream/web";
import { preflight, UPLOAD_CORS, withCors } from "@/lib/api/cors";
import { ApiError } from "@/lib/api/errors";
import { route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { claimForUpload, receiveUpload } from "@/lib/assets/upload";
import { serializeAsset, assetById } from "@/lib/assets/service";
import { verifyUploadToken } from "@/lib/assets/upload-token";

/**
 * PUT <the url from request-upload>: the raw file, no API key (the signed token
 * in the URL is the permission, for one asset until it expires or an upload
 * to it completes). The body streams to storage; nothing holds it in memory.
 */
export const PUT = withCors(
  route({ auth: "none" }, async ({ req }) => {
    const token = verifyUploadToken(new URL(req.url).searchParams.get("token"));
    if (!token.ok) throw new ApiError(403, [token.reason]);
    const limit = config().MAX_UPLOAD_BYTES;
    if (Number(req.headers.get("content-length") ?? 0) > limit) throw new ApiError(413, [`the file is larger than the limit of ${limit} bytes`]);
    if (!req.body) throw new ApiError(400, ["the request has no body: PUT the file as the body"]);
    const claim = await claimForUpload(token.assetId);
    await receiveUpload(token.assetId, claim, req.body as ReadableStream<Uint8Array>);
    return { asset: serializeAsset((await assetById(token.assetId))!) };
  }),
  UPLOAD_CORS,
);

export const OPTIONS = preflight(UPLOAD_CORS);
