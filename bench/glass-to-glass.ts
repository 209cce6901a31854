// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawn } from "node:child_process";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import type { Browser } from "playwright-core";
import { launchWebrtcBrowser } from "../test/support/webrtc-browser";

/**
 * Glass to glass over WebRTC by the capture clock: every source draws the wall clock into its
 * picture as a barcode, and the viewer reads it back from each frame it presents. Source and
 * viewer run on this machine, so they share one clock and nothing needs synchronising.
 */

/** Wall-clock milliseconds modulo 2^bits, one px-square per bit, then a white and a black square: a frame without them is not read. */
export const CLOCK = { bits: 20, px: 32, sentinels: [255, 0] };
const READINGS = 30;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const at = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
/** "median 123 ms (p10 110, p90 140)" */
const spread = (xs: number[]) => `${Math.round(at(xs, 0.5))} ms (p10 ${Math.round(at(xs, 0.1))}, p90 ${Math.round(at(xs, 0.9))})`;

interface ClockPage {
  floor(count: number): number[];
  publish(key: string): { postedAt: number };
  publisherRate(ms?: number): { bps: number; width?: number; height?: number; limitedBy?: string; estimateBps?: number };
  watch(playbackId: string, count: number): { firstFrameMs: number; readings: number[] };
}
type Call<K extends keyof ClockPage> = (...args: Parameters<ClockPage[K]>) => Promise<ReturnType<ClockPage[K]>>;

/** A page on the app's origin with the capture clock's script (bench/capture-clock.page.mjs) in it. */
async function clockPage(browser: Browser, origin: string) {
  const page = await browser.newPage();
  await page.goto(`${origin}/api/health`);
  await page.evaluate(`window.clockLayout = ${JSON.stringify(CLOCK)}`);
  await page.addScriptTag({ path: path.join(import.meta.dirname, "capture-clock.page.mjs"), type: "module" });
  await page.waitForFunction("window.captureClock");
  const call =
    <K extends keyof ClockPage>(name: K): Call<K> =>
    (...args) =>
      page.evaluate(([name, args]) => (window as never as { captureClock: Record<string, (...a: unknown[]) => unknown> }).captureClock[name](...args), [
        name,
        args,
      ] as const) as never;
  return { page, floor: call("floor"), publish: call("publish"), publisherRate: call("publisherRate"), watch: call("watch") };
}

/**
 * An RTMP publisher of the clock: 720p30 frames made here (grey, the barcode drawn in the Y plane
 * at the moment each frame is handed over), encoded by ffmpeg as a low-latency encoder sends them
 * (x264 zerolatency: no B-frames, no lookahead; a keyframe every 2 s) with a 440 Hz tone as AAC.
 */
export function rtmpClock(url: string) {
  const [w, h] = [1280, 720];
  const frame = Buffer.alloc((w * h * 3) / 2, 128);
  const ffmpeg = spawn("ffmpeg", [
    "-hide_banner", "-loglevel", "error",
    "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${w}x${h}`, "-framerate", "30", "-i", "pipe:0",
    "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
    "-map", "0:v", "-map", "1:a",
    "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-g", "60", "-b:v", "2500k", "-maxrate", "2500k", "-bufsize", "2500k",
    "-c:a", "aac", "-b:a", "128k", "-f", "flv", url,
  ], { stdio: ["pipe", "ignore", "inherit"] });
  ffmpeg.stdin!.on("error", () => {}); // it was stopped
  const squares = (ms: number) => [...Array.from({ length: CLOCK.bits }, (_, b) => Math.floor(ms / 2 ** b) % 2), ...CLOCK.sentinels.map((v) => (v ? 1 : 0))];
  const start = performance.now();
  let n = 0;
  let timer: NodeJS.Timeout;
  const next = () => {
    const bits = squares(Date.now() % 2 ** CLOCK.bits);
    for (let y = 0; y < 2 * CLOCK.px; y++) {
      const row = y * w;
      frame.fill(16, row, row + (bits.length + 1) * CLOCK.px);
      if (y < CLOCK.px) bits.forEach((bit, i) => bit && frame.fill(235, row + i * CLOCK.px, row + (i + 1) * CLOCK.px));
    }
    ffmpeg.stdin!.write(frame);
    n++;
    timer = setTimeout(next, Math.max(0, start + (n * 1000) / 30 - performance.now()));
  };
  next();
  return {
    stop: () => {
      clearTimeout(timer);
      ffmpeg.kill("SIGKILL");
    },
  };
}

/** A receiver of stream.started: when it first arrived for each stream id. */
async function startedReceiver() {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c)).on("end", () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      const id = body.stream?.id ?? body.payload?.stream?.id;
      if (id && !arrived.has(id)) arrived.set(id, at);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`,
    async startedAt(streamId: string, withinMs = 60_000) {
      const deadline = Date.now() + withinMs;
      while (!arrived.has(streamId) && Date.now() < deadline) await sleep(20);
      if (!arrived.has(streamId)) throw new Error(`no stream.started for ${streamId} within ${withinMs} ms`);
      return arrived.get(streamId)!;
    },
    close: () => server.close(),
  };
}

interface Api {
  post(path: string, body: unknown): Promise<{ body: { id: string; streamKey: string; playbackId: string; profiles?: { bitrate: number; height: number }[] } }>;
}

/**
 * The section's WebRTC latencies, in a network namespace with loopback alone (bench/realtime.ts):
 * the floor, a browser's WHIP publish and an RTMP publish without B-frames, each watched over WHEP;
 * WHIP POST to stream.started, WHEP POST to first frame, and the browser's bitrate 10 s after going live.
 */
export async function glassToGlass(origin: string, api: Api, rtmpPort: number) {
  const browser = await launchWebrtcBrowser(["--autoplay-policy=no-user-gesture-required"]);
  const events = await startedReceiver();
  let rtmp: ReturnType<typeof rtmpClock> | undefined;
  try {
    await api.post("webhook", { name: "bench", url: events.url, events: ["stream.started"] });
    const rows: string[] = [];

    const floorPage = await clockPage(browser, origin);
    const floor = await floorPage.floor(READINGS);
    await floorPage.page.close();

    // A browser going live over WHIP (H.264, as Chromium offers it first) and watched over WHEP.
    // A 720p rendition as its ladder: what the browser's bitrate is set against.
    const whipStream = (await api.post("stream", { name: "bench WHIP", profiles: [{ name: "720p", width: 1280, height: 720, bitrate: 2_500_000, fps: 30 }] })).body;
    const publisherPage = await clockPage(browser, origin);
    const { postedAt } = await publisherPage.publish(whipStream.streamKey);
    const startedAt = await events.startedAt(whipStream.id);
    const viewerPage = await clockPage(browser, origin);
    const rateAt = (s: number) => sleep(Math.max(0, startedAt + s * 1000 - Date.now())).then(() => publisherPage.publisherRate(2000));
    const [whip, rate, later] = await Promise.all([viewerPage.watch(whipStream.playbackId, READINGS), rateAt(10), rateAt(20)]);
    const top = Math.max(...(whipStream.profiles ?? []).map((p) => p.bitrate));
    await publisherPage.page.close();
    await viewerPage.page.close();

    // An RTMP encoder without B-frames: its H.264 is passed to WebRTC viewers as it is.
    const rtmpStream = (await api.post("stream", { name: "bench RTMP" })).body;
    rtmp = rtmpClock(`rtmp://127.0.0.1:${rtmpPort}/live/${rtmpStream.streamKey}`);
    await events.startedAt(rtmpStream.id);
    const rtmpPage = await clockPage(browser, origin);
    const fromRtmp = await rtmpPage.watch(rtmpStream.playbackId, READINGS);

    rows.push(`  floor, two RTCPeerConnections in one page (no server): ${spread(floor)}`);
    rows.push(`  browser WHIP publish (H.264, Opus) -> WHEP viewer:      ${spread(whip.readings)}   target <= 500 ms`);
    rows.push(`  RTMP without B-frames (x264 zerolatency) -> WHEP viewer: ${spread(fromRtmp.readings)}   target <= 1000 ms`);
    console.log(`\nGlass to glass over WebRTC by the capture clock (the wall clock drawn into 720p30 video with a tone, read from each frame the viewer shows), ${READINGS} readings`);
    for (const row of rows) console.log(row);
    console.log(`WHIP POST -> stream.started: ${postedAt ? startedAt - postedAt : "?"} ms (target <= 2000)`);
    console.log(`WHEP POST -> first frame: ${Math.round(whip.firstFrameMs)} ms of the WHIP publish, ${Math.round(fromRtmp.firstFrameMs)} ms of the RTMP one (target <= 1000)`);
    const sending = (r: typeof rate) =>
      `${(r.bps / 1e6).toFixed(2)} Mb/s at ${r.width}x${r.height}, limited by ${r.limitedBy ?? "?"} (its bandwidth estimate ${((r.estimateBps ?? 0) / 1e6).toFixed(2)} Mb/s)`;
    console.log(`Browser publisher (Chromium, H.264) 10 s after going live: ${sending(rate)}; at 20 s: ${sending(later)}; the stream's top rendition ${(top / 1e6).toFixed(2)} Mb/s`);
  } finally {
    rtmp?.stop();
    events.close();
    await browser.close();
  }
}
