// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { ladderArgs } from "@/media-node/ladder";
import { startAppProcess } from "../scripts/app-process";
import { CHROMIUM, ensurePrograms } from "../scripts/prerequisites";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { withKey } from "./api-call";
import { flvSource, publishCopy } from "./broadcast";
import { freePort } from "@/lib/net/free-port";
import { startListening } from "./listening";
import { treeCpuSeconds } from "./process-cpu";

/**
 * The live pipeline, measured for real:
 * - publish -> stream.started (webhook received) and -> first playable segment;
 * - glass-to-glass: the source burns its capture clock (ms since the publisher
 *   started, as a 20-bit barcode drawn by ffmpeg's geq) into every frame; a real
 *   hls.js player (/play in headless Chromium) reads the barcode back from the
 *   displayed frame, so latency = display wall-clock - capture wall-clock
 *   (publisher start-up counts against us), at 2 s and at 1 s segments;
 * - the 720p/480p/360p ladder's real-time factor on a 720p30 file: our ladder
 *   command (media-node/ladder.ts) next to a plain hand-written ffmpeg ladder.
 */
const LADDER = [
  { name: "480p", width: 854, height: 480, bitrate: 1_600_000, fps: 30 },
  { name: "360p", width: 640, height: 360, bitrate: 800_000, fps: 30 },
];
/** The capacity figure's ladder: what a creator platform typically gives a 720p source. */
const CAPACITY_LADDER = [{ name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 }, ...LADDER];
const BAR_BITS = 20;
const BAR_PX = 32;
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--autoplay-policy=no-user-gesture-required"];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


/** 720p30 test pattern with the capture clock as a barcode in its top-left corner. */
function publisher(url: string, gopFrames: number) {
  const bar = `color=c=black:s=${BAR_BITS * BAR_PX}x${BAR_PX}:r=30,geq=lum='255*mod(floor(floor(T*1000)/pow(2\\,floor(X/${BAR_PX})))\\,2)':cb=128:cr=128`;
  return spawn("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-re",
    "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30",
    "-f", "lavfi", "-i", bar,
    "-f", "lavfi", "-i", "sine=frequency=440",
    "-filter_complex", "[0:v][1:v]overlay=0:0[v]", "-map", "[v]", "-map", "2:a",
    "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", String(gopFrames), "-b:v", "3000k",
    "-c:a", "aac", "-f", "flv", url,
  ], { stdio: "ignore" });
}

/** Live media in a bucket: a test S3 (s3rver) in a process of its own, and the settings that point at it. */
async function s3Store(dir: string) {
  const s3 = await startListening("bench/s3rver.ts", [path.join(dir, "s3")]);
  return {
    env: { S3_ENDPOINT: s3.url, S3_BUCKET: "castline", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" },
    stop: s3.stop,
  };
}

async function liveRun(env: NodeJS.ProcessEnv, key: string, segmentS: number, store: "local" | "s3") {
  const rtmpPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-live-"));
  const bucket = store === "s3" ? await s3Store(dataDir) : undefined;
  const app = await startAppProcess({ ...env, ...bucket?.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, RTMP_PORT: String(rtmpPort), RTMP_HOST: "127.0.0.1", HLS_SEGMENT_S: String(segmentS) });
  let startedAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume().on("end", () => {
      startedAt ||= Date.now();
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hook = await call(operations.createWebhook, { body: { name: "bench", url: `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/`, events: ["stream.started"] } }, withKey(app.url, key));
  const stream = await call(operations.createStream, { body: { name: `bench ${segmentS}s`, profiles: LADDER } }, withKey(app.url, key));
  ensurePrograms([CHROMIUM]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM.bin, args: CHROMIUM_ARGS });
  const t0 = Date.now();
  const pub = publisher(`rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`, 30 * segmentS);
  try {
    let playableAt = 0;
    while (!playableAt && Date.now() - t0 < 30_000) {
      const master = await fetch(`${app.url}/hls/${stream.playbackId}/index.m3u8`);
      if (master.ok) {
        const first = (await master.text()).split("\n").find((l) => l && !l.startsWith("#"))!;
        const media = await (await fetch(`${app.url}/hls/${stream.playbackId}/${first}`)).text();
        if (media.includes("#EXTINF")) playableAt = Date.now();
      }
      if (!playableAt) await sleep(50);
    }
    while (!startedAt && Date.now() - t0 < 30_000) await sleep(20);

    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    // HLS's glass-to-glass (the player would try WebRTC first; that is measured by test/webrtc-ingest).
    await page.goto(`${app.url}/play/${stream.playbackId}?lowLatency=false`);
    await page.waitForFunction(() => {
      const v = document.querySelector("video");
      return v && v.currentTime > 1 && v.videoWidth > 0;
    }, undefined, { timeout: 30_000 });
    const latencies: number[] = [];
    for (let i = 0; i < 30; i++) {
      await sleep(500);
      const reading = await page.evaluate(({ bits, px }) => {
        const v = document.querySelector("video")!;
        const c = document.createElement("canvas");
        c.width = v.videoWidth;
        c.height = v.videoHeight;
        const g = c.getContext("2d", { willReadFrequently: true })!;
        g.drawImage(v, 0, 0);
        const scale = v.videoWidth / 1280;
        let ms = 0;
        for (let b = 0; b < bits; b++) {
          const [r] = g.getImageData(Math.round((b * px + px / 2) * scale), Math.round((px / 2) * scale), 1, 1).data;
          if (r > 128) ms += 2 ** b;
        }
        return { ms, at: Date.now() };
      }, { bits: BAR_BITS, px: BAR_PX });
      const latency = reading.at - (t0 + reading.ms);
      if (latency > 0 && latency < 60_000) latencies.push(latency);
    }
    return { started: startedAt - t0, playable: playableAt - t0, glassToGlass: median(latencies), samples: latencies.length };
  } finally {
    pub.kill("SIGINT");
    await browser.close();
    await call(operations.deleteWebhook, { params: { id: hook.id } }, withKey(app.url, key));
    receiver.close();
    await app.stop();
    bucket?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * How many simultaneous broadcasts one media node sustains at real-time speed on
 * this machine: N publishers (a pre-encoded 720p30 file sent with -c copy, so the
 * publishers cost almost nothing) on the capacity ladder; over a 20 s window, each
 * session's transcoded media time (its counters: segments stored, not just encoded)
 * against wall time, and the CPU of the app's ffmpeg processes per broadcast (not of every
 * ffmpeg on the machine: a shared machine runs others).
 */
async function capacity(env: NodeJS.ProcessEnv, key: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-capacity-"));
  const source = path.join(dir, "src.flv");
  flvSource(source, { seconds: 30, size: "1280x720", kbps: 3000 });
  const rtmpPort = await freePort();
  fs.mkdirSync(path.join(dir, "app"));
  const app = await startAppProcess({ ...env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: path.join(dir, "app"), RTMP_PORT: String(rtmpPort), RTMP_HOST: "127.0.0.1" });
  const renditions = CAPACITY_LADDER.length;
  const results: { n: number; minRtf: number; cpuPerBroadcast: number }[] = [];
  try {
    for (let n = 1; n <= 4; n++) {
      const streams = await Promise.all(Array.from({ length: n }, (_, i) => call(operations.createStream, { body: { name: `capacity ${n}.${i}`, profiles: CAPACITY_LADDER } }, withKey(app.url, key))));
      const pubs = streams.map((s) => publishCopy(source, `rtmp://127.0.0.1:${rtmpPort}/live/${s.streamKey}`));
      try {
        const transcoded = async () =>
          Promise.all(streams.map(async (s) => (await call(operations.listStreamSessions, { params: { id: s.id } }, withKey(app.url, key))).items[0]?.transcodedSegmentsDuration ?? 0));
        const deadline = Date.now() + 60_000;
        while ((await transcoded()).some((d) => d === 0) && Date.now() < deadline) await sleep(500);
        await sleep(4000); // past the start-up burst of the held beginning
        const [d0, c0, t0] = [await transcoded(), treeCpuSeconds(app.child.pid!, "ffmpeg"), Date.now()];
        await sleep(20_000);
        const [d1, c1, t1] = [await transcoded(), treeCpuSeconds(app.child.pid!, "ffmpeg"), Date.now()];
        const wall = (t1 - t0) / 1000;
        const rtfs = d1.map((d, i) => (d - d0[i]) / renditions / wall);
        results.push({ n, minRtf: Math.min(...rtfs), cpuPerBroadcast: (c1 - c0) / wall / n });
      } finally {
        pubs.forEach((p) => p.kill("SIGINT"));
        await sleep(3000);
        await Promise.all(streams.map((s) => call(operations.deleteStream, { params: { id: s.id } }, withKey(app.url, key))));
      }
      if (results.at(-1)!.minRtf < 0.98) break;
    }
  } finally {
    await app.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

export async function benchCapacity(ctx: { env: NodeJS.ProcessEnv; key: string }) {
  console.log(`\nCapacity of one media node (${os.cpus().length} cores), ladder source copy + ${CAPACITY_LADDER.map((p) => p.name).join(" + ")} (x264 veryfast), 720p30 sources:`);
  for (const r of await capacity(ctx.env, ctx.key)) {
    console.log(`  ${r.n} broadcast(s): slowest session at ${r.minRtf.toFixed(2)}x real time; ffmpeg CPU ${r.cpuPerBroadcast.toFixed(2)} cores per broadcast`);
  }
}

function timed(args: string[]) {
  const t = process.hrtime.bigint();
  const r = spawnSync("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e9;
}

function ladderSpeed() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-ladder-"));
  const seconds = 20;
  // FLV, as the ladder reads what RTMP carries (it names the format: an MP4 is not read).
  const source = path.join(dir, "src.flv");
  flvSource(source, { seconds, size: "1280x720", kbps: 3000 });
  const profiles = [{ name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 }, ...LADDER];
  const ours = ladderArgs({ input: source, outDir: path.join(dir, "ours"), profiles, segmentS: 2, sourceIsH264: true, audio: "aac", sourceKbps: 3000 })
    .filter((a, i, all) => !(a === "-rw_timeout" || all[i - 1] === "-rw_timeout"));
  for (let i = 0; i <= profiles.length; i++) fs.mkdirSync(path.join(dir, "ours", `v${i}`), { recursive: true });
  fs.mkdirSync(path.join(dir, "bare"));
  const bare = [
    "-v", "error", "-i", source,
    "-filter_complex", "[0:v]split=3[a][b][c];[a]scale=1280:720[o0];[b]scale=854:480[o1];[c]scale=640:360[o2]",
    "-map", "0:v", "-map", "[o0]", "-map", "[o1]", "-map", "[o2]", "-map", "0:a", "-map", "0:a", "-map", "0:a", "-map", "0:a",
    "-c:v:0", "copy", "-c:v:1", "libx264", "-c:v:2", "libx264", "-c:v:3", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
    "-b:v:1", "3000k", "-b:v:2", "1600k", "-b:v:3", "800k", "-g", "60", "-sc_threshold", "0", "-c:a", "copy",
    "-f", "hls", "-hls_time", "2", "-var_stream_map", "v:0,a:0 v:1,a:1 v:2,a:2 v:3,a:3",
    "-hls_segment_filename", path.join(dir, "bare", "%v_%03d.ts"), path.join(dir, "bare", "%v.m3u8"),
  ];
  const oursS = timed(ours);
  const bareS = timed(bare);
  fs.rmSync(dir, { recursive: true, force: true });
  return { seconds, oursRtf: seconds / oursS, bareRtf: seconds / bareS, overhead: oursS / bareS };
}

export async function benchLive(ctx: { env: NodeJS.ProcessEnv; key: string }) {
  console.log("\nLive (720p30 source; live ladder: source copy + 480p + 360p; RTF test: source copy + 720p + 480p + 360p)");
  for (const [segmentS, store] of [[2, "local"], [2, "s3"], [1, "local"]] as const) {
    const r = await liveRun(ctx.env, ctx.key, segmentS, store);
    console.log(
      `${segmentS} s segments, live HLS in ${store === "s3" ? "S3 (s3rver)" : "local disk"}: publish -> stream.started ${(r.started / 1000).toFixed(2)} s, -> first playable segment ${(r.playable / 1000).toFixed(2)} s; ` +
        `glass-to-glass (hls.js, median of ${r.samples}) ${(r.glassToGlass / 1000).toFixed(2)} s`,
    );
  }
  await benchCapacity(ctx);
  const l = ladderSpeed();
  console.log(
    `ladder real-time factor on ${l.seconds} s of 720p30: ours ${l.oursRtf.toFixed(2)}x, bare ffmpeg ${l.bareRtf.toFixed(2)}x, overhead ratio ${l.overhead.toFixed(3)}`,
  );
}
