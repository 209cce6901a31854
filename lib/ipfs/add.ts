import type { ImporterOptions } from "ipfs-unixfs-importer";
import { blockstore } from "./blockstore";

/**
 * `ipfs add` with no flags (kubo's config/import.go defaults), so a CID we compute
 * is the one kubo, and pinning services that use its defaults, compute for the same bytes.
 * Spelled out rather than taken from the importer's defaults, which are CIDv1 with raw leaves.
 */
async function kuboDefaults(): Promise<ImporterOptions> {
  // import(), not a static import: tsx runs this repo as CommonJS and would turn the
  // latter into require(), which the importer's ESM-only dependencies (@ipld/dag-pb) refuse.
  const [{ fixedSize }, { balanced }] = await Promise.all([import("ipfs-unixfs-importer/chunker"), import("ipfs-unixfs-importer/layout")]);
  return {
    cidVersion: 0,
    rawLeaves: false,
    chunker: fixedSize({ chunkSize: 262_144 }),
    layout: balanced({ maxChildrenPerNode: 174 }),
  };
}

export interface IpfsAdded {
  /** CIDv0 (Qm...). */
  cid: string;
  /** Bytes of the file (not of the DAG). */
  size: number;
}

/** Imports one file into our blockstore as it streams in; only a few 256 KiB chunks are in memory at once. */
export async function addToIpfs(content: AsyncIterable<Uint8Array>): Promise<IpfsAdded> {
  const { importFile } = await import("ipfs-unixfs-importer");
  let size = 0;
  async function* counted() {
    for await (const chunk of content) {
      size += chunk.byteLength;
      yield chunk;
    }
  }
  const root = await importFile({ content: counted() }, await blockstore(), await kuboDefaults());
  return { cid: root.cid.toString(), size };
}
