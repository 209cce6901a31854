// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { defaultLadder } from "@/lib/assets/processing/ladder";
import { config } from "@/lib/config";
import { SEGMENT_S } from "@/lib/assets/processing/transcode";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { withKey } from "./api-call";
import { putFile } from "./vod";

/**
 * The VOD ladder: a 60 s 1080p30 H.264/AAC file through the production app (the
 * local store, the built-in job driver), from the upload PUT's 200 to
 * - first playable: GET /api/asset/{id} ready, and its master, first variant and first segment 200;
 * - first ABR rendition ready, and every rendition ready;
 * next to bare ffmpeg making the same ladder (sizes, bitrates, preset, keyframes,
 * 4 s HLS segments, AAC copied) in one process, measured in the same run. With one
 * job worker (the app's), then with a second worker process beside it; after a
 * warm-up upload, so neither pays for the worker's first ffmpeg.
 */
const SECONDS = 60;
const POLL_MS = 50;

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Ctx {
  appUrl: string;
  key: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

function makeSource(file: string) {
  const r = spawnSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=30:duration=${SECONDS}`,
    "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`,
    "-c:v", "libx264", "-preset", "veryfast", "-b:v", "8M", "-pix_fmt", "yuv420p", "-g", "60",
    "-c:a", "aac", "-b:a", "128k", "-shortest", "-movflags", "+faststart", file,
  ]);
  if (r.status !== 0) throw new Error(`making the source failed: ${r.stderr}`);
}

/** The same ladder as Castline's chunk jobs make (lib/assets/processing/transcode.ts chunkArgs), in one ffmpeg. */
function bareLadder(source: string, out: string): number {
  const ladder = defaultLadder({ width: 1920, height: 1080, fps: 30 });
  const split = `[0:v]split=${ladder.length}${ladder.map((_, i) => `[s${i}]`).join("")}`;
  const chains = ladder.map((r, i) => `[s${i}]scale=${r.width}:${r.height},setsar=1[o${i}]`);
  const args = ["-hide_banner", "-loglevel", "error", "-y", "-i", source, "-filter_complex", [split, ...chains].join(";")];
  ladder.forEach((_, i) => args.push("-map", `[o${i}]`));
  ladder.forEach(() => args.push("-map", "0:a:0"));
  args.push("-c:v", "libx264", "-preset", process.env.TRANSCODE_PRESET ?? "veryfast", "-profile:v", "high", "-pix_fmt", "yuv420p");
  ladder.forEach((r, i) => args.push(`-b:v:${i}`, String(r.bitrate), `-maxrate:v:${i}`, String(Math.round(r.bitrate * 1.1)), `-bufsize:v:${i}`, String(r.bitrate * 2)));
  args.push("-force_key_frames", `expr:gte(t,n_forced*${SEGMENT_S})`, "-sc_threshold", "0", "-c:a", "copy");
  args.push(
    "-f", "hls", "-hls_time", String(SEGMENT_S), "-hls_playlist_type", "vod",
    "-var_stream_map", ladder.map((_, i) => `v:${i},a:${i}`).join(" "),
    "-hls_segment_filename", path.join(out, "%v", "seg_%03d.ts"), path.join(out, "%v", "index.m3u8"),
  );
  const t0 = now();
  const r = spawnSync("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`bare ladder failed: ${r.stderr}`);
  return (now() - t0) / 1000;
}

async function ok(url: string): Promise<string | undefined> {
  const res = await fetch(url);
  const text = await res.text();
  return res.status === 200 ? text : undefined;
}

/** Master, first variant, first segment: what a player fetches before the first frame. */
async function plays(playbackUrl: string): Promise<boolean> {
  let url = playbackUrl;
  for (let depth = 0; depth < 3; depth++) {
    const text = await ok(url);
    const uri = text?.split("\n").find((l) => l.trim() && !l.startsWith("#"));
    if (!uri) return false;
    url = new URL(uri.trim(), url).href;
    if (!uri.endsWith(".m3u8")) return (await fetch(url).then((r) => r.arrayBuffer().then(() => r.status))) === 200;
  }
  return false;
}

async function ladderRun(ctx: Ctx, file: string, label: string) {
  const { url, asset } = await call(operations.requestUpload, { body: { name: `bench ladder ${label}` } }, withKey(ctx.appUrl, ctx.key));
  const put = await putFile(url, file);
  if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}`);
  const t0 = now();
  let playable: number | undefined;
  let firstRendition: number | undefined;
  let firstName = "";
  for (;;) {
    if (now() - t0 > 15 * 60_000) throw new Error(`asset ${asset.id}: ladder not done after 15 min`);
    const a = await call(operations.getAsset, { params: { id: asset.id } }, withKey(ctx.appUrl, ctx.key));
    if (a.status.phase === "failed") throw new Error(`asset ${asset.id} failed: ${a.status.errorMessage}`);
    if (playable === undefined && a.status.phase === "ready" && a.playbackUrl && (await plays(a.playbackUrl))) playable = (now() - t0) / 1000;
    const ready = (a.renditions ?? []).filter((r) => r.phase === "ready");
    if (firstRendition === undefined && ready.length) [firstRendition, firstName] = [(now() - t0) / 1000, ready[0].name];
    const renditions = a.renditions ?? [];
    if (renditions.length && renditions.every((r) => r.phase !== "transcoding")) {
      const failed = renditions.filter((r) => r.phase === "failed");
      if (failed.length) throw new Error(`renditions failed: ${failed.map((r) => r.name)}`);
      return { playable: playable ?? NaN, firstRendition: firstRendition!, firstName, all: (now() - t0) / 1000, names: renditions.map((r) => r.name) };
    }
    await sleep(playable === undefined ? POLL_MS : 250);
  }
}

function startWorker(ctx: Ctx): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { env: { ...ctx.env, DATA_DIR: ctx.dataDir }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      if (out.includes("worker running")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`worker exited (${code}): ${out}`)));
  });
}

export async function benchLadder(ctx: Ctx) {
  const dir = fs.mkdtempSync(path.join(ctx.dataDir, "bench-ladder-"));
  try {
    const source = path.join(dir, "source.mp4");
    makeSource(source);
    const chunkS = config().TRANSCODE_CHUNK_S;
    // A first upload warms the worker (its first ffmpeg, code paths run once): the runs measured start warm.
    const warm = path.join(dir, "warm.mp4");
    spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", warm]);
    await ladderRun(ctx, warm, "warm-up");
    console.log(
      `\nVOD ladder (${SECONDS} s 1080p30 H.264/AAC, ${(fs.statSync(source).size / 1024 ** 2).toFixed(1)} MiB -> 1080p, 720p, 480p, 360p; ` +
        `${chunkS} s chunks, x264 ${process.env.TRANSCODE_PRESET ?? "veryfast"})`,
    );
    fs.mkdirSync(path.join(dir, "bare"));
    const bare = bareLadder(source, path.join(dir, "bare"));
    console.log(`bare ffmpeg, one process, the same ladder:        ${bare.toFixed(1)} s`);

    const report = (label: string, r: Awaited<ReturnType<typeof ladderRun>>) => {
      const ratio = r.all / bare;
      console.log(
        `${label}: playable ${r.playable.toFixed(2)} s ${r.playable <= 1 ? "OK" : "ABOVE"} target 1 s | first ABR rendition (${r.firstName}) ${r.firstRendition.toFixed(1)} s | ` +
          `all ${r.names.length} renditions ${r.all.toFixed(1)} s = ${ratio.toFixed(2)}x bare`,
      );
      return ratio;
    };
    const one = report("Castline, 1 job worker ", await ladderRun(ctx, source, "1 worker"));
    console.log(`  target <= 1.15x bare: ${one <= 1.15 ? "OK" : "ABOVE"}`);
    const second = await startWorker(ctx);
    try {
      const two = report("Castline, 2 job workers", await ladderRun(ctx, source, "2 workers"));
      console.log(`  two workers on this machine no slower than one: ${two <= one * 1.05 ? "OK" : "SLOWER"} (${(two / one).toFixed(2)}x)`);
    } finally {
      second.kill("SIGTERM");
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
