import { FsBlockstore } from "blockstore-fs";
import { NextToLast } from "blockstore-fs/sharding";
import type { CID } from "multiformats/cid";
import { config } from "@/lib/config";

/** How blocks are laid out on disk; kept here so a block's file can be found (for its modification time). */
const sharding = new NextToLast();

let opening: Promise<FsBlockstore> | undefined;

/**
 * This deployment's IPFS blocks, on disk under DATA_DIR/ipfs/blocks, opened once per
 * process. Only local blocks: a missing block is a NotFoundError at once, never a network fetch.
 */
export function blockstore(): Promise<FsBlockstore> {
  opening ??= (async () => {
    const store = new FsBlockstore(`${config().dataDir}/ipfs/blocks`, { shardingStrategy: sharding });
    await store.open();
    return store;
  })().catch((err) => {
    opening = undefined; // let a later call retry (e.g. once the disk is writable)
    throw err;
  });
  return opening;
}

/** Where a block lives on disk, for stat(); blocks are keyed by multihash, whatever the CID's version. */
export function blockPath(store: FsBlockstore, cid: CID): string {
  const { dir, file } = sharding.encode(cid);
  return `${store.path}/${dir}/${file}`;
}
