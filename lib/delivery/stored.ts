import { buffer } from "node:stream/consumers";
import { config } from "@/lib/config";
import { objects } from "@/lib/storage";
import type { ObjectInfo } from "@/lib/storage/types";
import { HotFiles } from "./cache";
import { fileReply, notFound, type FileOptions, type Reply, type ViewerRequest } from "./reply";

/** An object of the store (local disk or S3) as an answer, with ranges and validators (lib/delivery/reply.ts). */
export async function objectReply(req: ViewerRequest, key: string, opts: FileOptions): Promise<Reply> {
  const store = objects();
  const info = await store.stat(key);
  if (!info) return notFound();
  return fileReply(req, info, (range) => store.read(key, range), key, opts);
}

/**
 * Live segments leave a live playlist's window within seconds (its six segments), and every
 * viewer fetches each within those seconds: held that long, and a little more for a player behind.
 */
const LIVE_SEGMENT_HELD_MS = 30_000;
/** A 2 s 1080p segment at 8 Mbit/s weighs 2 MB: anything far larger is not a live segment worth holding. */
const LARGEST_HELD_BYTES = 16 * 1024 * 1024;

let hot: HotFiles<ObjectInfo> | undefined;
const hotFiles = () => {
  hot ??= new HotFiles<ObjectInfo>({
    ttlMs: LIVE_SEGMENT_HELD_MS,
    maxBytes: config().LIVE_SEGMENT_MEMORY_MB * 1024 * 1024,
    maxFileBytes: LARGEST_HELD_BYTES,
  });
  return hot;
};

/**
 * An object never rewritten under its key that many viewers fetch at once (a live segment) as an
 * answer: read from the store once, then answered from memory (lib/delivery/cache.ts, HotFiles).
 */
export async function heldObjectReply(req: ViewerRequest, key: string, opts: FileOptions): Promise<Reply> {
  const store = objects();
  const held = await hotFiles().get(
    key,
    () => store.stat(key),
    async (info) => (info.size ? buffer(await store.read(key, { start: 0, end: info.size - 1 })) : Buffer.alloc(0)),
  );
  if (!held) return notFound();
  return fileReply(req, held.info, held.body ?? ((range) => store.read(key, range)), key, opts);
}

/** How well the held files do, for /metrics. */
export const heldFigures = () => ({ hits: hot?.hits ?? 0, misses: hot?.misses ?? 0, bytes: hot?.heldBytes ?? 0 });
