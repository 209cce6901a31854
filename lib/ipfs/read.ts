import fs from "node:fs";
import { Readable } from "node:stream";
import type { UnixFSFile } from "ipfs-unixfs-exporter";
import type { CID } from "multiformats/cid";
import type { RangedSource } from "@/lib/storage/types";
import { blockPath, blockstore } from "./blockstore";

const DAG_PB = 0x70;
const SHA2_256 = 0x12;

/**
 * The exporter walks the DAG ahead of its reader with no backpressure, so one
 * content() call over a whole file would buffer it all for a slow client. Reading
 * in windows bounds memory to about one window; each window re-reads only the few
 * small interior nodes above it.
 */
const READ_WINDOW_BYTES = 16 * 262_144;

/** Bytes start..end (inclusive) of a file, one window at a time; windows are chunk-aligned so no leaf is read twice. */
async function* windowed(file: UnixFSFile, start: number, end: number) {
  for (let offset = start; offset <= end; ) {
    const next = Math.min(end + 1, (Math.floor(offset / READ_WINDOW_BYTES) + 1) * READ_WINDOW_BYTES);
    yield* file.content({ offset, length: next - offset });
    offset = next;
  }
}

/** Only what addToIpfs stores: dag-pb with sha2-256 (either CID version). Anything else is unknown here. */
async function parseCid(text: string): Promise<CID | undefined> {
  if (text.length > 128) return undefined;
  // The exporter's own CID class (see below): it refuses a CID made by another copy of multiformats.
  const { CID } = await import("multiformats/cid");
  try {
    const cid = CID.parse(text);
    return cid.code === DAG_PB && cid.multihash.code === SHA2_256 ? cid : undefined;
  } catch {
    return undefined;
  }
}

/** A file of our blockstore, ready for rangedResponse; undefined for a bad CID, a missing block or a non-file. */
export async function ipfsFile(text: string): Promise<RangedSource | undefined> {
  const cid = await parseCid(text);
  if (!cid) return undefined;
  // import(): see add.ts (tsx would require() the exporter, and its dependency cborg is ESM-only).
  const { exporter } = await import("ipfs-unixfs-exporter");
  const store = await blockstore();
  const entry = await exporter(cid, store).catch(() => undefined);
  if (entry?.type !== "file") return undefined;
  const stat = await fs.promises.stat(blockPath(store, cid)).catch(() => undefined);
  if (!stat) return undefined;
  return {
    size: Number(entry.size),
    // Content never changes; this is when it arrived here.
    modifiedAt: stat.mtime,
    open: async ({ start, end }) => Readable.from(windowed(entry, start, end), { objectMode: false }),
  };
}
