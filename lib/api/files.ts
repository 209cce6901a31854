import fs from "node:fs";
import { Readable } from "node:stream";

/** Content types of what the app serves from disk. */
export const CONTENT_TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  mp4: "video/mp4",
  m4s: "video/iso.segment",
};

const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "content-length, content-range" };

export function notFoundResponse() {
  return Response.json({ errors: ["not found"] }, { status: 404, headers: CORS });
}

/**
 * A file as an HTTP response, streamed (never read whole into memory), with
 * single-range requests (players and download managers seek with them).
 */
export async function fileResponse(file: string, req: Request, opts: { cacheControl: string; contentType?: string }) {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return notFoundResponse();
  const type = opts.contentType ?? CONTENT_TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream";
  const headers: Record<string, string> = {
    ...CORS,
    "content-type": type,
    "cache-control": opts.cacheControl,
    "accept-ranges": "bytes",
    "last-modified": stat.mtime.toUTCString(),
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.get("range") ?? "");
  let start = 0;
  let end = stat.size - 1;
  let status = 200;
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, stat.size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), stat.size - 1) : stat.size - 1;
    if (start > end || start >= stat.size) {
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${stat.size}` } });
    }
    status = 206;
    headers["content-range"] = `bytes ${start}-${end}/${stat.size}`;
  }
  headers["content-length"] = String(end - start + 1);
  if (req.method === "HEAD" || stat.size === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(fs.createReadStream(file, { start, end })) as ReadableStream;
  return new Response(body, { status, headers });
}

export function textResponse(text: string, contentType: string, cacheControl: string) {
  return new Response(text, { headers: { ...CORS, "content-type": contentType, "cache-control": cacheControl } });
}
