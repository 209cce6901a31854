import fs from "node:fs";
import path from "node:path";
import type { S3App } from "./s3-app";
import { putFile, timeCopy, waitForEnd, writeChacha20 } from "./vod";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { withKey } from "./api-call";

/**
 * Upload MB/s of ONE app instance, from the client's first byte to the answer:
 * - a PUT to the app's own upload URL (local disk store);
 * - tus (one creation POST, then the whole file in one PATCH) to the local app and to the S3 app;
 * - for reference, the same PUT straight to the store (s3rver) through its pre-signed URL;
 * next to `cp` of the same file on the same disk. The file is chacha20 bytes (incompressible,
 * like video, but not a video): each upload's processing fails at ffprobe, and is waited for
 * before the next measurement. BENCH_UPLOAD_MIB sets the size (default 160).
 */
const MiB = 1024 ** 2;
const BYTES = Number(process.env.BENCH_UPLOAD_MIB ?? 160) * MiB;
const RUNS = 2;

interface Deployment {
  appUrl: string;
  key: string;
}

const requestUpload = (d: Deployment) => call(operations.requestUpload, { body: { name: "bench upload" } }, withKey(d.appUrl, d.key));

async function viaPut(d: Deployment, file: string) {
  const { url, asset } = await requestUpload(d);
  const put = await putFile(url, file);
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${put.body.slice(0, 300)}`);
  await waitForEnd(d, asset.id);
  return put.seconds;
}

async function viaTus(d: Deployment, file: string) {
  const { tusEndpoint, asset } = await requestUpload(d);
  const started = performance.now();
  const created = await fetch(tusEndpoint, { method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": String(BYTES) } });
  if (created.status !== 201) throw new Error(`tus creation answered ${created.status}: ${await created.text()}`);
  const patch = await putFile(new URL(created.headers.get("location")!, tusEndpoint).href, file, {
    method: "PATCH",
    headers: { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" },
  });
  if (patch.status !== 204) throw new Error(`tus PATCH answered ${patch.status}: ${patch.body.slice(0, 300)}`);
  const seconds = (performance.now() - started) / 1000;
  await waitForEnd(d, asset.id);
  return seconds;
}

export async function benchUpload(ctx: { appUrl: string; key: string; dataDir: string; s3App: S3App }) {
  const dir = fs.mkdtempSync(path.join(ctx.dataDir, "bench-upload-"));
  const file = path.join(dir, "upload.bin");
  const local = { appUrl: ctx.appUrl, key: ctx.key };
  const s3 = { appUrl: ctx.s3App.url, key: ctx.s3App.key };
  try {
    await writeChacha20(file, BYTES);
    const ways: [string, () => Promise<number>][] = [
      ["cp on the same disk (baseline)", async () => timeCopy(file, "cp", (copy) => [file, copy])],
      ["PUT to the app's upload URL, local store", () => viaPut(local, file)],
      ["tus to the app, local store", () => viaTus(local, file)],
      ["tus to the app, S3 store (s3rver)", () => viaTus(s3, file)],
      ["PUT pre-signed straight to s3rver (no app)", () => viaPut(s3, file)],
    ];
    const seconds = new Map<string, number[]>(ways.map(([label]) => [label, []]));
    const failures = new Map<string, string>();
    for (let i = 0; i < RUNS; i++) {
      for (const [label, upload] of ways) {
        if (failures.has(label)) continue;
        // One way failing (a test store's gap) does not hide the others' figures.
        await upload().then(
          (s) => seconds.get(label)!.push(s),
          (err: Error) => failures.set(label, err.message.split("\n")[0]),
        );
      }
    }
    const cpBest = BYTES / 1e6 / Math.min(...seconds.get(ways[0][0])!);
    console.log(`\nUpload MB/s per app instance (${BYTES / MiB} MiB of chacha20 bytes, ${RUNS} runs each, client: node:http piping fs.createReadStream)`);
    console.log("how                                         | MB/s per run      | best / cp");
    for (const [label, runs] of seconds) {
      if (failures.has(label)) {
        console.log(`${label.padEnd(43)} | failed: ${failures.get(label)}`);
        continue;
      }
      const rates = runs.map((s) => BYTES / 1e6 / s);
      console.log(
        `${label.padEnd(43)} | ${rates
          .map((r) => r.toFixed(0).padStart(5))
          .join("  ")
          .padEnd(17)} | ${(Math.max(...rates) / cpBest).toFixed(2)}`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
