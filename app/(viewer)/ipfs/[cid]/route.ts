import type { Readable } from "node:stream";
import { notFoundResponse, rangedResponse } from "@/lib/api/files";
import { ipfsFile } from "@/lib/ipfs";

const SNIFF_BYTES = 8;

/** Only the two kinds exports produce (NFT metadata, mp4); everything else stays opaque. */
function contentType(head: Buffer): string {
  if (head[0] === 0x7b) return "application/json"; // "{"
  if (head.subarray(4, 8).toString("latin1") === "ftyp") return "video/mp4";
  return "application/octet-stream";
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** This app's read-only IPFS gateway: files of its own blockstore, by CID, with range requests. */
export async function GET(req: Request, ctx: { params: Promise<{ cid: string }> }) {
  const { cid } = await ctx.params;
  const file = await ipfsFile(cid);
  if (!file) return notFoundResponse();
  const head = file.size ? await readAll(await file.open({ start: 0, end: Math.min(file.size, SNIFF_BYTES) - 1 })) : Buffer.alloc(0);
  return rangedResponse(req, file, cid, { cacheControl: "public, max-age=31536000, immutable", contentType: contentType(head) });
}

export const HEAD = GET;
