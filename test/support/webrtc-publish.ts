import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess } from "../../scripts/app-process";
import { newAccount } from "./client";
import { ffprobe, until } from "./media";
import { startReceiver } from "./receiver";
import { launchWebrtcBrowser, publishFromPage, watchOverWhep } from "./webrtc-browser";

/**
 * A cap on a stream going live or idle, a segment listed: the test starts among the suite's first
 * files, beside both halves of the browser tier, and a VP8 publish (decoded, then encoded as
 * H.264 for HLS) was not live within 30 s there once. A passing wait ends as soon as it holds.
 */
const MEDIA_WITHIN_MS = 90_000;

/**
 * A browser publishing over WHIP to a whole Castline (its embedded PostgreSQL, its media node),
 * run by test/webrtc-ingest.test.ts inside a network namespace of its own (`unshare --net`, loopback
 * up): ICE has nothing but 127.0.0.1, and no packet leaves loopback. Prints what it saw as JSON.
 */
async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-webrtc-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    RTMP_HOST: "127.0.0.1",
    RTMP_PORT: String(await freePort()),
    MEDIA_NODE: "true",
    WEBRTC_HOST: "127.0.0.1",
    ALLOW_PRIVATE_URLS: "true", // the webhook receiver, on loopback
    RECORDING_RECONNECT_WINDOW_S: "3", // a recording is made an asset once its stream has not come back for this long
    METRICS_PORT: String(await freePort()),
    // STUN where Livepeer's clients look for it: this namespace's own 127.0.0.1:3478
    STUN_PORT: "3478",
  };
  delete env.DATABASE_URL; // the embedded one, in this namespace
  const begun = Date.now();
  const app = await startAppProcess(env);
  /** When each part of the scenario was done, in seconds from its start: where a slow run's time went. */
  const phases: Record<string, number> = {};
  const done = (part: string) => void (phases[part] = Math.round((Date.now() - begun) / 100) / 10);
  done("app up");
  /** The media node's /metrics, read now: a sample's value by its name and labels. */
  const nodeMetrics = async () => {
    const auth: Record<string, string> = env.METRICS_TOKEN ? { authorization: `Bearer ${env.METRICS_TOKEN}` } : {};
    const text = await (await fetch(`http://127.0.0.1:${env.METRICS_PORT}/metrics`, { headers: auth })).text();
    return (sample: string) =>
      Number(
        text
          .split("\n")
          .find((l) => l.startsWith(`${sample} `))
          ?.split(" ")[1],
      );
  };
  const browser = await launchWebrtcBrowser();
  const seen: Record<string, unknown> = {};
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  try {
    const api = await newAccount(app.url);
    const events = await startReceiver();
    receiver = events;
    await api.post("webhook", { name: "events", url: events.url, events: ["stream.started", "stream.idle"] });
    const stream = (await api.post("stream", { name: "from the browser", record: true })).body;
    const page = await browser.newPage();
    await page.goto(`${app.url}/api/health`);
    const started = Date.now();
    seen.publish = await publishFromPage(page, stream.streamKey);
    await until("the stream live", async () => (await api.get(`stream/${stream.id}`)).body.isActive === true, MEDIA_WITHIN_MS);
    seen.liveAfterMs = Date.now() - started;
    done("live");

    // Its HLS, as a player gets it.
    const sources = (await api.get(`playback/${stream.playbackId}`)).body.meta.source as { hrn: string; type: string; url: string }[];
    const hls = sources.find((s) => s.hrn === "HLS (TS)")!.url;
    seen.webrtcSource = sources.find((s) => s.hrn === "WebRTC (H264)");
    seen.segment = (await probeFirstSegment(hls, path.join(dataDir, "segment.ts"))).streams;
    seen.playableAfterMs = Date.now() - started;
    // What the browser sends once the node's bitrate requests (REMB) let it reach 720p (15 s at most).
    const sending = () =>
      page.evaluate(async () => {
        const pc = (window as unknown as { pc: RTCPeerConnection }).pc;
        const video = [...(await pc.getStats()).values()].find((s) => s.type === "outbound-rtp" && s.kind === "video");
        return {
          frameWidth: video?.frameWidth as number | undefined,
          targetBitrate: video?.targetBitrate,
          pliCount: video?.pliCount,
          state: pc.connectionState,
        };
      });
    const rampedFrom = Date.now();
    seen.sending = await until("the browser sending 720p", async () => ((await sending()).frameWidth ?? 0) >= 1280 && sending(), 15_000, 500).catch(() =>
      sending(),
    );
    seen.rampedAfterMs = Date.now() - rampedFrom;

    // A viewer over WHEP, at the playback id: the publisher's media forwarded as it arrives.
    seen.whep = await watchOverWhep(browser, app.url, stream.playbackId);

    // Refused, nothing created: a second publisher of the live stream; an offer with no video the node takes.
    const second = await browser.newPage();
    await second.goto(`${app.url}/api/health`);
    seen.secondPublisher = (await publishFromPage(second, stream.streamKey)).status;
    await second.close();
    const idleStream = (await api.post("stream", { name: "no usable codec" })).body;
    const av1Only = await browser.newPage();
    await av1Only.goto(`${app.url}/api/health`);
    seen.noUsableCodec = (await publishFromPage(av1Only, idleStream.streamKey, "video/AV1")).status;
    await av1Only.close();
    seen.noUsableCodecSessions = (await api.get(`stream/${idleStream.id}/sessions`)).body.length;

    const location = (seen.publish as { location: string }).location;
    seen.deleteStatus = (await fetch(new URL(location, app.url), { method: "DELETE" })).status;
    await until("the stream idle", async () => (await api.get(`stream/${stream.id}`)).body.isActive === false, MEDIA_WITHIN_MS);
    seen.ended = true;
    done("idle");
    // As for RTMP: the webhooks, and the recording as an asset.
    await until("stream.idle delivered", async () => events.received.some((r) => r.json.event === "stream.idle"), MEDIA_WITHIN_MS);
    seen.events = events.received.map((r) => r.json.event);
    seen.recording = await until(
      "the recording's asset, ready",
      async () => {
        const assets = (await api.get("asset")).body;
        seen.assets = assets.map((a: { source?: unknown; status: unknown }) => ({ source: a.source, status: a.status }));
        const asset = assets.find((a: { source?: { type: string; streamId?: string } }) => a.source?.streamId === stream.id);
        return asset?.status.phase === "ready" && { source: asset.source.type, duration: asset.videoSpec?.duration };
      },
      90_000,
      500,
    );
    delete seen.assets;
    done("recording ready");

    // The creator goes live from the dashboard's stream page, and stops there.
    const other = (await api.post("stream", { name: "from the dashboard" })).body;
    const [name, value] = api.cookie.split(/=(.*)/s);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name, value, url: app.url }]);
    const dashboard = await context.newPage();
    await dashboard.goto(`${app.url}/streams/${other.id}`);
    const card = dashboard.locator("#browser-broadcast");
    await card.getByRole("button", { name: "Turn on camera" }).click();
    await card.getByRole("button", { name: "Go live" }).click();
    await card.getByRole("button", { name: "Stop broadcast" }).waitFor({ timeout: MEDIA_WITHIN_MS });
    await until("the dashboard's stream live", async () => (await api.get(`stream/${other.id}`)).body.isActive === true, MEDIA_WITHIN_MS);
    seen.dashboardLive = true;
    if (process.env.SCREENSHOT_DIR) await dashboard.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, "browser-broadcast.png"), fullPage: true });
    await card.getByRole("button", { name: "Stop broadcast" }).click();
    await until("the dashboard's stream idle", async () => (await api.get(`stream/${other.id}`)).body.isActive === false, MEDIA_WITHIN_MS);
    seen.dashboardEnded = await card.getByRole("button", { name: "Turn on camera" }).isVisible();
    done("dashboard");

    // A publisher offering VP8 alone (Firefox without OpenH264), and video without sound (no microphone):
    // made H.264 for HLS; a WHEP viewer gets its VP8 as it comes.
    const vp8 = (await api.post("stream", { name: "vp8 only" })).body;
    const vp8Page = await browser.newPage();
    await vp8Page.goto(`${app.url}/api/health`);
    seen.vp8Publish = await publishFromPage(vp8Page, vp8.streamKey, "video/VP8", false);
    await until("the VP8 publish live", async () => (await api.get(`stream/${vp8.id}`)).body.isActive === true, MEDIA_WITHIN_MS).catch(async (err) => {
      // What the publisher's side saw: connected or not, frames and keyframes sent, keyframes asked.
      seen.vp8Sending = await vp8Page.evaluate(async () => {
        const pc = (window as unknown as { pc: RTCPeerConnection }).pc;
        const video = [...(await pc.getStats()).values()].find((s) => s.type === "outbound-rtp" && s.kind === "video");
        return {
          state: pc.connectionState,
          ice: pc.iceConnectionState,
          frames: video?.framesEncoded,
          keyFrames: video?.keyFramesEncoded,
          pli: video?.pliCount,
          packets: video?.packetsSent,
        };
      });
      throw err;
    });
    const vp8Hls = ((await api.get(`playback/${vp8.playbackId}`)).body.meta.source as { hrn: string; url: string }[]).find((s) => s.hrn === "HLS (TS)")!.url;
    const vp8First = await probeFirstSegment(vp8Hls, path.join(dataDir, "vp8.ts"));
    seen.vp8Segment = vp8First.streams;
    seen.vp8SegmentS = vp8First.seconds;
    seen.vp8Whep = await watchOverWhep(browser, app.url, vp8.playbackId);
    await fetch(new URL((seen.vp8Publish as { location: string }).location, app.url), { method: "DELETE" });
    await vp8Page.close();
    done("vp8");

    // An RTMP publish with B-frames (x264's default) and AAC, watched over WHEP: a rendition made for WebRTC.
    const rtmp = (await api.post("stream", { name: "rtmp, watched over webrtc" })).body;
    const encoder = spawn(
      "ffmpeg",
      ["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=frequency=440"]
        .concat(["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac", "-t", "120"])
        .concat(["-f", "flv", `rtmp://127.0.0.1:${env.RTMP_PORT}/live/${rtmp.streamKey}`]),
      { stdio: "ignore" },
    );
    try {
      const sourceOf = async () =>
        ((await api.get(`playback/${rtmp.playbackId}`)).body.meta?.source as { hrn: string; url: string }[] | undefined)?.find(
          (s) => s.hrn === "WebRTC (H264)",
        );
      seen.rtmpWebrtcSource = await until("the RTMP stream's playback info to list WebRTC", sourceOf, 60_000);
      seen.rtmpWhep = await watchOverWhep(browser, app.url, rtmp.playbackId);
      seen.rtmpWhepAgain = await watchOverWhep(browser, app.url, rtmp.playbackId);
      // The node's metrics: the rendition (its video made: the source has B-frames) runs on a while after its viewers left, and what was sent is counted.
      const metrics = await nodeMetrics();
      seen.metrics = {
        made: metrics('castline_webrtc_renditions{video="made"}'),
        sentBytes: metrics("castline_webrtc_sent_bytes_total"),
        nacked: metrics("castline_webrtc_nacked_packets_total"),
        lostSent: metrics('castline_webrtc_lost_packets_total{direction="sent"}'),
        lostReceived: metrics('castline_webrtc_lost_packets_total{direction="received"}'),
      };

      // Castline's player: WebRTC first where it can; `?lowLatency=false` plays HLS.
      const player = await browser.newPage();
      const modes: Record<string, unknown> = {};
      seen.player = modes;
      for (const [query, mode] of [
        ["", "webrtc"],
        ["?lowLatency=false", "hls"],
      ]) {
        const started = Date.now();
        await player.goto(`${app.url}/play/${rtmp.playbackId}${query}`);
        const badge = player.getByTestId("playback-mode");
        await badge.and(player.locator(`[data-mode="${mode}"]`)).waitFor({ state: "attached", timeout: 20_000 });
        await until(
          "the player's video to move",
          async () => (await player.getByTestId("player-video").evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames)) > 12,
          20_000,
        );
        modes[mode] = { label: await badge.textContent(), playingAfterMs: Date.now() - started };
        if (process.env.SCREENSHOT_DIR) await player.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `player-${mode}.png`) });
      }
      await player.close();
      done("rtmp over webrtc");
    } finally {
      encoder.kill("SIGKILL");
    }

    // An RTMP publish without B-frames: its video copied as it is to WHEP viewers (passthrough).
    const plain = (await api.post("stream", { name: "rtmp without b-frames" })).body;
    const plainEncoder = spawn(
      "ffmpeg",
      ["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=frequency=440"]
        .concat(["-c:v", "libx264", "-preset", "veryfast", "-bf", "0", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-t", "120"])
        .concat(["-f", "flv", `rtmp://127.0.0.1:${env.RTMP_PORT}/live/${plain.streamKey}`]),
      { stdio: "ignore" },
    );
    try {
      const listed = async () =>
        ((await api.get(`playback/${plain.playbackId}`)).body.meta?.source as { hrn: string }[] | undefined)?.some((s) => s.hrn === "WebRTC (H264)");
      await until("the stream without B-frames listed for WebRTC", listed, 60_000);
      seen.copiedWhep = await watchOverWhep(browser, app.url, plain.playbackId);
      seen.copiedMetrics = { copied: (await nodeMetrics())('castline_webrtc_renditions{video="copied"}') };
      done("copied");
    } finally {
      plainEncoder.kill("SIGKILL");
    }

    // Livepeer's own clients (@livepeer/core-web, behind @livepeer/react's Broadcast and Player), unchanged, on another origin.
    seen.livepeer = await livepeerClients(browser, app.url, api);
    done("livepeer");
  } catch (err) {
    seen.error = err instanceof Error ? err.message : String(err);
  } finally {
    await receiver?.close();
    await browser.close();
    await app.stop().catch(() => undefined);
    done("stopped");
    seen.phases = phases;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`RESULT ${JSON.stringify(seen)}`);
}

/** The streams and the length of the first segment a live HLS master's first variant lists, once it lists one (ffprobe). */
async function probeFirstSegment(master: string, file: string) {
  const segment = await until(
    "a segment listed",
    async () => {
      const text = await fetch(master).then((r) => (r.ok ? r.text() : ""));
      const variant = text.split("\n").find((l) => l && !l.startsWith("#"));
      if (!variant) return undefined;
      const playlistUrl = new URL(variant, master);
      const playlist = await fetch(playlistUrl).then((r) => (r.ok ? r.text() : ""));
      const name = playlist.split("\n").find((l) => l && !l.startsWith("#"));
      return name && new URL(name, playlistUrl).href;
    },
    MEDIA_WITHIN_MS,
  );
  fs.writeFileSync(file, Buffer.from(await (await fetch(segment)).arrayBuffer()));
  const info = await ffprobe(file);
  return {
    streams: info.streams.map((s) => ({ type: s.codec_type, codec: s.codec_name, width: s.width, height: s.height })),
    seconds: Number(info.format.duration),
  };
}

/**
 * A page on another origin running @livepeer/core-web's createNewWHIP (camera to a new stream)
 * and createNewWHEP (watching it): whether each connects, whether ICE gathering had completed when
 * it sent its offer (it asks the URL's host for STUN and TURN on 3478 and otherwise sends after
 * 5 s), and the time from each client's start to connected and to a first frame.
 */
async function livepeerClients(browser: Browser, origin: string, api: Awaited<ReturnType<typeof newAccount>>) {
  const stream = (await api.post("stream", { name: "livepeer clients" })).body;
  const { outputFiles } = await build({
    stdin: {
      contents: `import * as webrtc from "@livepeer/core-web/webrtc"; window.livepeer = webrtc;`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
  });
  const script = outputFiles[0].contents;
  const site = http.createServer((req, res) => {
    if (req.url === "/livepeer.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>elsewhere</title><script src="/livepeer.js"></script>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    // tsx names the functions below through esbuild's __name helper, which the page does not have.
    await page.evaluate("window.__name = (f) => f");
    return await page.evaluate(
      async ({ origin, streamKey, playbackId }) => {
        type Livepeer = typeof import("@livepeer/core-web/webrtc");
        const { createNewWHIP, createNewWHEP, attachMediaStreamToPeerConnection } = (window as unknown as { livepeer: Livepeer }).livepeer;
        // Each connection made, and each offer's POST with the state of its connection's ICE gathering then.
        const peers: RTCPeerConnection[] = [];
        const Native = RTCPeerConnection;
        window.RTCPeerConnection = class extends Native {
          constructor(config?: RTCConfiguration) {
            super(config);
            peers.push(this);
          }
        } as typeof RTCPeerConnection;
        const posts: { path: string; gathering: string; status?: number }[] = [];
        const nativeFetch = window.fetch.bind(window);
        window.fetch = async (input, init) => {
          if (init?.method !== "POST") return nativeFetch(input, init);
          const post = { path: new URL(String(input)).pathname, gathering: peers.at(-1)?.iceGatheringState ?? "none" } as (typeof posts)[number];
          posts.push(post);
          const res = await nativeFetch(input, init);
          post.status = res.status;
          return res;
        };
        const within = <T>(ms: number, what: string, promise: Promise<T>) =>
          Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

        const media = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 }, audio: true });
        const preview = document.createElement("video");
        const started = performance.now();
        const whipConnected = await within(
          20_000,
          "createNewWHIP connected",
          new Promise<number>((resolve, reject) => {
            createNewWHIP({
              ingestUrl: `${origin}/webrtc/${streamKey}`,
              element: preview,
              sdpTimeout: null,
              callbacks: {
                onRTCPeerConnection: (pc) => void attachMediaStreamToPeerConnection({ mediaStream: media, peerConnection: pc }),
                onConnected: () => resolve(Math.round(performance.now() - started)),
                onError: (e) => reject(e),
              },
            });
          }),
        );

        // Watched once the stream is live (HLS ready): its playback info lists WebRTC then.
        for (let i = 0; i < 300; i++) {
          const info = await nativeFetch(`${origin}/api/playback/${playbackId}`).then((r) => r.json());
          if (info.meta?.live === 1) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const video = document.createElement("video");
        video.muted = true;
        video.autoplay = true;
        document.body.append(video);
        const watchStarted = performance.now();
        const whep = await within(
          20_000,
          "createNewWHEP's first frame",
          new Promise<{ connectedMs: number; firstFrameMs: number }>((resolve, reject) => {
            let connectedMs = 0;
            createNewWHEP({
              source: `${origin}/webrtc/${playbackId}`,
              element: video,
              accessControl: {},
              sdpTimeout: null,
              callbacks: {
                onConnected: () => {
                  connectedMs = Math.round(performance.now() - watchStarted);
                  video.requestVideoFrameCallback(() => resolve({ connectedMs, firstFrameMs: Math.round(performance.now() - watchStarted) }));
                },
                onError: (e) => reject(e),
              },
            });
          }),
        );
        return { whipConnectedMs: whipConnected, whep, width: video.videoWidth, posts };
      },
      { origin, streamKey: stream.streamKey, playbackId: stream.playbackId },
    );
  } finally {
    await page.close();
    site.close();
  }
}

void main();
