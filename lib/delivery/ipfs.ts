import type { Readable } from "node:stream";
import { ipfsFile } from "@/lib/ipfs";
import { fileReply, notFound, type Reply, type ViewerRequest } from "./reply";

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
export async function ipfsGateway(req: ViewerRequest, cid: string): Promise<Reply> {
  const file = await ipfsFile(cid);
  if (!file) return notFound();
  const head = file.size ? await readAll(await file.open({ start: 0, end: Math.min(file.size, SNIFF_BYTES) - 1 })) : Buffer.alloc(0);
  return fileReply(req, file, (range) => file.open(range), cid, { cacheControl: "public, max-age=31536000, immutable", contentType: contentType(head) });
}
