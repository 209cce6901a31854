import { createCipheriv, createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { config } from "@/lib/config";
import { addToIpfs } from "@/lib/ipfs";

/**
 * CID computation for IPFS exports: 256 MiB of chacha20 bytes (incompressible, like
 * video; generated at well over 1 GB/s, so not the bottleneck) streamed through
 * addToIpfs into the DATA_DIR blockstore, twice. The second run rewrites blocks that exist.
 * `npx tsx bench/ipfs.ts`
 */
const BYTES = Number(process.env.BENCH_IPFS_MIB ?? 256) * 1024 * 1024;
const RUNS = 2;
const PIECE = 1024 * 1024;

async function* chacha20(seed: string, size: number) {
  const cipher = createCipheriv("chacha20", createHash("sha256").update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(PIECE);
  for (let left = size; left > 0; left -= PIECE) yield cipher.update(zeros.subarray(0, Math.min(left, PIECE)));
}

export async function benchIpfs(): Promise<void> {
  console.log(`\nIPFS CIDs (${BYTES / 1024 / 1024} MiB, kubo defaults: CIDv0, 256 KiB chunks; blocks in ${config().dataDir}/ipfs/blocks)`);
  for (let run = 1; run <= RUNS; run++) {
    const started = process.hrtime.bigint();
    const { cid, size } = await addToIpfs(chacha20("castline-bench-ipfs", BYTES));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`run ${run}: ${(size / 1e6 / seconds).toFixed(0)} MB/s (${(size / 1024 / 1024 / seconds).toFixed(0)} MiB/s), ${seconds.toFixed(2)} s, ${cid}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-ipfs-"));
  process.env.DATA_DIR = dataDir;
  benchIpfs()
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
}
