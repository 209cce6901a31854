import fs from "node:fs";
import { Readable } from "node:stream";
import type { AssetFilesRow } from "@/db/schema";
import { admitViewer } from "@/lib/access/gate";
import { assetForPlayback } from "@/lib/assets/files";
import type { AssetRow } from "@/lib/assets/service";
import { objects } from "@/lib/storage";
import type { RangedSource } from "@/lib/storage/types";
import { CORS as POLICIES } from "./cors";
import { contentDisposition } from "./download-name";

/** Content types of what the app serves from disk. */
export const CONTENT_TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  mp4: "video/mp4",
  m4s: "video/iso.segment",
};

const CORS = POLICIES.public;

export function notFoundResponse() {
  return Response.json({ errors: ["not found"] }, { status: 404, headers: CORS });
}

export interface ServeOptions {
  cacheControl: string;
  contentType?: string;
  /** Offered to browsers as the name of a download (lib/api/download-name.ts makes one of a title). */
  filename?: string;
}


/**
 * A streamed response (never read whole into memory) with single-range requests:
 * players and download managers seek with them.
 */
export async function rangedResponse(req: Request, source: RangedSource, name: string, opts: ServeOptions) {
  const type = opts.contentType ?? CONTENT_TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
  const headers: Record<string, string> = {
    ...CORS,
    "content-type": type,
    "cache-control": opts.cacheControl,
    "accept-ranges": "bytes",
    "last-modified": source.modifiedAt.toUTCString(),
  };
  if (opts.filename) headers["content-disposition"] = contentDisposition(opts.filename);
  const { size } = source;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.get("range") ?? "");
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
    }
    status = 206;
    headers["content-range"] = `bytes ${start}-${end}/${size}`;
  }
  headers["content-length"] = String(end - start + 1);
  if (req.method === "HEAD" || size === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(await source.open({ start, end })) as ReadableStream;
  return new Response(body, { status, headers });
}

export async function fileResponse(file: string, req: Request, opts: ServeOptions) {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return notFoundResponse();
  const source = { size: stat.size, modifiedAt: stat.mtime, open: async (r: { start: number; end: number }) => fs.createReadStream(file, r) };
  return rangedResponse(req, source, file, opts);
}

export function textResponse(text: string, contentType: string, cacheControl: string) {
  return new Response(text, { headers: { ...CORS, "content-type": contentType, "cache-control": cacheControl } });
}

/** An object of the store as an HTTP response, with range requests, whichever store holds it. */
export async function objectResponse(key: string, req: Request, opts: ServeOptions) {
  const store = objects();
  const info = await store.stat(key);
  if (!info) return notFoundResponse();
  return rangedResponse(req, { ...info, open: (range) => store.read(key, range) }, key, opts);
}

export const IMMUTABLE = "public, max-age=31536000, immutable";
/** Live media playlists change every segment: a CDN may hold one for a second, no longer. */
export const LIVE_PLAYLIST = "public, max-age=1";

/** A file of an asset, for viewers its playback policy admits (lib/access/gate.ts). */
export async function assetFileResponse(
  req: Request,
  playbackId: string,
  pick: (files: AssetFilesRow) => string | undefined,
  opts: ServeOptions | ((asset: AssetRow) => ServeOptions),
) {
  const asset = await assetForPlayback(playbackId);
  if (!asset) return notFoundResponse();
  const admission = await admitViewer(req, asset);
  if (!admission.ok) return admission.response;
  const key = asset.files ? pick(asset.files) : undefined;
  if (!key) return notFoundResponse();
  return admission.answer(await objectResponse(key, req, typeof opts === "function" ? opts(asset) : opts));
}
