// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawnSync } from "node:child_process";
import { createCipheriv, createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { withKey } from "./api-call";

/**
 * VOD uploads through the production app, on the local object store (DATA_DIR/objects):
 * - a 2 GiB upload PUT to the pre-signed URL by a streaming client (node:http piping
 *   fs.createReadStream), next to `cp` of the same file on the same disk. Both run
 *   after a `sync` and neither fsyncs (the store renames its .part file, no fsync).
 *   The file is chacha20 bytes (incompressible, like video); it is not a video, so
 *   its processing ends "failed" after ffprobe — each run waits for that before the
 *   next measurement, so processing never overlaps one. The RSS figure is the rise
 *   of the process that actually read the body off the socket (the one whose
 *   /proc/<pid>/io rchar grew by the file size: the app process or one of its
 *   children), sampled every 50 ms, with its VmHWM (reset through clear_refs) as a
 *   cross-check for peaks between samples;
 * - upload-complete-to-playable for a 60 s 720p30 H.264/AAC MP4: from the PUT's 200
 *   to GET /api/asset/{id} saying ready AND its playbackUrl and first segment
 *   answering 200, polled every 50 ms.
 * BENCH_VOD_MIB sets the big file's size (default 2048).
 */
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const BIG_BYTES = Number(process.env.BENCH_VOD_MIB ?? 2048) * MiB;
const BIG_RUNS = 2;
const CLIP_RUNS = 3;
const CLIP_S = 60;
const POLL_MS = 50;
const RSS_SAMPLE_MS = 50;
const PIECE = MiB;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => performance.now();
const mbps = (bytes: number, seconds: number) => bytes / 1e6 / seconds;
const pad = (s: string | number, n: number) => String(s).padStart(n);

interface Ctx {
  appUrl: string;
  key: string;
  /** app.child.pid: the process startAppProcess started. */
  appPid: number;
  /** The bench's (and the app's) DATA_DIR. */
  dataDir: string;
}

/** Streams a file as the body of a PUT (or of `method`); resolves when the whole response has been read. */
export function putFile(
  url: string,
  file: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; seconds: number; bytes: number }> {
  const bytes = fs.statSync(file).size;
  return new Promise((resolve, reject) => {
    const started = now();
    const req = http.request(url, {
      method: opts.method ?? "PUT",
      headers: { "content-type": "application/octet-stream", ...opts.headers, "content-length": String(bytes) },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, seconds: (now() - started) / 1000, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
    pipeline(fs.createReadStream(file, { highWaterMark: PIECE }), req).catch(reject);
  });
}

export async function writeChacha20(file: string, size: number) {
  const cipher = createCipheriv("chacha20", createHash("sha256").update("castline-bench-vod").digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(PIECE);
  async function* bytes() {
    for (let left = size; left > 0; left -= PIECE) yield cipher.update(zeros.subarray(0, Math.min(left, PIECE)));
  }
  await pipeline(bytes(), fs.createWriteStream(file));
}

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
}

/** The pid and every descendant, from /proc/<pid>/stat. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

const commOf = (pid: number) => {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return cmd.slice(0, 4).map((a) => path.basename(a)).join(" ");
  } catch {
    return "?";
  }
};

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function rchar(pid: number): number {
  try {
    return Number(/^rchar: (\d+)/m.exec(fs.readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Samples VmRSS of every process in the app's tree every 50 ms while `work` runs,
 * and tells which of them read the body (rchar grew by at least `bytes`).
 */
async function watchRss<T>(appPid: number, bytes: number, work: () => Promise<T>) {
  const pids = processTree(appPid);
  const base = new Map(pids.map((p) => [p, statusKb(p, "VmRSS") ?? 0]));
  const peak = new Map(base);
  const read0 = new Map(pids.map((p) => [p, rchar(p)]));
  // Reset the high-water mark so VmHWM afterwards is the peak during the work (Linux >= 4.0).
  const hwmReset = new Set<number>();
  for (const p of pids) {
    try {
      fs.writeFileSync(`/proc/${p}/clear_refs`, "5");
      hwmReset.add(p);
    } catch {
      // not ours to reset: the 50 ms samples only
    }
  }
  const sample = () => {
    for (const p of pids) peak.set(p, Math.max(peak.get(p)!, statusKb(p, "VmRSS") ?? 0));
  };
  const timer = setInterval(sample, RSS_SAMPLE_MS);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  sample();
  const readBy = pids.map((p) => ({ pid: p, read: rchar(p) - read0.get(p)! })).sort((a, b) => b.read - a.read);
  const receiver = readBy[0].read >= bytes * 0.9 ? readBy[0].pid : appPid;
  const hwm = hwmReset.has(receiver) ? statusKb(receiver, "VmHWM") : undefined;
  return {
    result,
    receiver,
    receiverIsApp: receiver === appPid,
    readBody: readBy[0].read >= bytes * 0.9,
    tree: pids.map((p) => `${p} ${commOf(p)}`),
    baseMiB: base.get(receiver)! / 1024,
    riseMiB: (peak.get(receiver)! - base.get(receiver)!) / 1024,
    hwmRiseMiB: hwm === undefined ? undefined : (hwm - base.get(receiver)!) / 1024,
  };
}

type AssetView = { id: string; status: { phase: string; errorMessage?: string }; videoSpec?: unknown; playbackUrl?: string };

export async function waitForEnd(ctx: Pick<Ctx, "appUrl" | "key">, assetId: string, timeoutMs = 120_000): Promise<AssetView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const asset = await call(operations.getAsset, { params: { id: assetId } }, withKey(ctx.appUrl, ctx.key));
    if (["ready", "failed"].includes(asset.status.phase) || Date.now() > until) return asset;
    await sleep(200);
  }
}

/** A copy of the file to a sibling (cp or dd), after a sync; no fsync (the store does not fsync either). */
export function timeCopy(file: string, cmd: string, args: (copy: string) => string[]): number {
  const copy = `${file}.copy`;
  run("sync", []);
  const started = now();
  run(cmd, args(copy));
  const seconds = (now() - started) / 1000;
  fs.rmSync(copy, { force: true });
  return seconds;
}

async function bigUploads(ctx: Ctx) {
  const dir = fs.mkdtempSync(path.join(ctx.dataDir, "bench-vod-"));
  const file = path.join(dir, "big.bin");
  try {
    const genStarted = now();
    await writeChacha20(file, BIG_BYTES);
    const genS = (now() - genStarted) / 1000;
    console.log(
      `${BIG_BYTES / GiB} GiB of chacha20 bytes in ${dir} (made in ${genS.toFixed(1)} s); client: node:http PUT piping fs.createReadStream; ` +
        `sync before each copy and upload, no fsync in any; load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`,
    );
    const ratios: number[] = [];
    const rises: number[] = [];
    for (let i = 1; i <= BIG_RUNS; i++) {
      const cpS = timeCopy(file, "cp", (copy) => [file, copy]);
      const ddS = timeCopy(file, "dd", (copy) => [`if=${file}`, `of=${copy}`, "bs=1M", "status=none"]);
      const { url, asset } = await call(operations.requestUpload, { body: { name: `bench big ${i}` } }, withKey(ctx.appUrl, ctx.key));
      run("sync", []);
      const watched = await watchRss(ctx.appPid, BIG_BYTES, () => putFile(url, file));
      const put = watched.result;
      if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}: ${put.body.slice(0, 500)}`);
      if (i === 1) {
        console.log(`app process tree: ${watched.tree.join("; ")}`);
        console.log(
          watched.readBody
            ? `body read by pid ${watched.receiver} (${watched.receiverIsApp ? "the app process itself, app.child.pid" : "a child of the app process"})`
            : `no process in the app tree read the whole body by rchar: measuring app.child.pid ${ctx.appPid}`,
        );
      }
      const upMBs = mbps(put.bytes, put.seconds);
      const cpMBs = mbps(BIG_BYTES, cpS);
      const ratio = upMBs / cpMBs;
      ratios.push(ratio);
      rises.push(watched.riseMiB);
      const hwm = watched.hwmRiseMiB === undefined ? "" : `, VmHWM rise ${watched.hwmRiseMiB.toFixed(1)} MiB`;
      console.log(`run ${i}: cp     ${pad(cpS.toFixed(2), 6)} s = ${pad(cpMBs.toFixed(0), 5)} MB/s   (coreutils cp: copy_file_range, an in-kernel copy)`);
      console.log(`       dd     ${pad(ddS.toFixed(2), 6)} s = ${pad(mbps(BIG_BYTES, ddS).toFixed(0), 5)} MB/s   (dd bs=1M: read/write through user space; reference only)`);
      console.log(`       upload ${pad(put.seconds.toFixed(2), 6)} s = ${pad(upMBs.toFixed(0), 5)} MB/s   upload/cp ${ratio.toFixed(2)} (target >= 0.70)`);
      console.log(
        `       server RSS ${watched.baseMiB.toFixed(0)} MiB before, peak rise ${watched.riseMiB.toFixed(1)} MiB (50 ms samples${hwm}) (target < 100 MiB)`,
      );
      // Processing (ffprobe rejects these bytes) ends before the next measurement; then the stored copy goes.
      const end = await waitForEnd(ctx, asset.id);
      if (end.status.phase !== "failed" && end.status.phase !== "ready") console.log(`  (asset ${asset.id} still ${end.status.phase} after 2 min)`);
      fs.rmSync(path.join(ctx.dataDir, "objects", "assets", asset.id), { recursive: true, force: true });
    }
    console.log(
      `${BIG_BYTES / GiB} GiB upload: worst upload/cp ${Math.min(...ratios).toFixed(2)} ${Math.min(...ratios) >= 0.7 ? "OK" : "BELOW"} target 0.70; ` +
        `worst RSS rise ${Math.max(...rises).toFixed(1)} MiB ${Math.max(...rises) < 100 ? "OK" : "ABOVE"} target 100 MiB`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function makeClip(file: string) {
  run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=30:duration=${CLIP_S}`,
    "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${CLIP_S}`,
    "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "60",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ]);
}

async function ok200(url: string): Promise<string | undefined> {
  const res = await fetch(url);
  if (res.status !== 200) {
    await res.arrayBuffer().catch(() => undefined);
    return undefined;
  }
  return res.text();
}

async function clipToPlayable(ctx: Ctx, file: string, i: number) {
  const { url, asset } = await call(operations.requestUpload, { body: { name: `bench clip ${i}` } }, withKey(ctx.appUrl, ctx.key));
  const put = await putFile(url, file);
  if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}: ${put.body.slice(0, 500)}`);
  const t0 = now();
  let inspectedAt: number | undefined;
  let readyAt: number | undefined;
  for (;;) {
    if (now() - t0 > 120_000) throw new Error(`asset ${asset.id} not playable after 2 min`);
    const a = await call(operations.getAsset, { params: { id: asset.id } }, withKey(ctx.appUrl, ctx.key));
    if (a.videoSpec && inspectedAt === undefined) inspectedAt = now();
    if (a.status.phase === "failed") throw new Error(`asset ${asset.id} failed: ${a.status.errorMessage}`);
    if (a.status.phase === "ready" && a.playbackUrl) {
      readyAt ??= now();
      const playlist = await ok200(a.playbackUrl);
      const first = playlist?.split("\n").find((l) => l.trim() && !l.startsWith("#"));
      if (first && (await ok200(new URL(first.trim(), a.playbackUrl).href)) !== undefined) {
        const t = now();
        return { assetId: asset.id, putS: put.seconds, putMBs: mbps(put.bytes, put.seconds), inspectedS: ((inspectedAt ?? readyAt) - t0) / 1000, readyS: (readyAt - t0) / 1000, playableS: (t - t0) / 1000 };
      }
    }
    await sleep(POLL_MS);
  }
}

/** Each asset's ABR ladder follows in the background: the next run starts after it, not against it. */
async function renditionsSettled(ctx: Ctx, assetId: string) {
  for (const t0 = now(); now() - t0 < 600_000; await sleep(500)) {
    const { renditions = [] } = await call(operations.getAsset, { params: { id: assetId } }, withKey(ctx.appUrl, ctx.key));
    if (renditions.length && renditions.every((r) => r.phase !== "transcoding")) return;
  }
}

async function clipRuns(ctx: Ctx) {
  const dir = fs.mkdtempSync(path.join(ctx.dataDir, "bench-vod-clip-"));
  const file = path.join(dir, "clip.mp4");
  try {
    makeClip(file);
    const size = fs.statSync(file).size;
    console.log(`\nUpload-complete-to-playable (${CLIP_S} s 720p30 H.264/AAC MP4, ${(size / MiB).toFixed(1)} MiB; GET /api/asset/{id} polled every ${POLL_MS} ms)`);
    const playable: number[] = [];
    for (let i = 1; i <= CLIP_RUNS; i++) {
      const r = await clipToPlayable(ctx, file, i);
      playable.push(r.playableS);
      await renditionsSettled(ctx, r.assetId);
      console.log(
        `run ${i}: PUT ${pad(r.putS.toFixed(3), 6)} s (${pad(r.putMBs.toFixed(0), 4)} MB/s) | 200 -> inspected ${pad(r.inspectedS.toFixed(2), 5)} s, ` +
          `-> ready ${pad(r.readyS.toFixed(2), 5)} s, -> playlist + first segment 200 ${pad(r.playableS.toFixed(2), 5)} s`,
      );
    }
    const m = median(playable);
    console.log(`median upload-complete-to-playable ${m.toFixed(2)} s ${m <= 3 ? "OK" : "ABOVE"} target 3 s`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchVod(ctx: Ctx) {
  console.log(`\nVOD upload (${BIG_BYTES / GiB} GiB PUT to the pre-signed URL, local store under DATA_DIR, vs cp on the same disk)`);
  await bigUploads(ctx);
  await clipRuns(ctx);
}
