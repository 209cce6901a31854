import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess } from "../../scripts/app-process";
import { CHROMIUM_WEBRTC } from "../../scripts/prerequisites";
import { newAccount } from "./client";
import { ffprobe, until } from "./media";

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
  };
  delete env.DATABASE_URL; // the embedded one, in this namespace
  const app = await startAppProcess(env);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_WEBRTC.bin,
    args: ["--no-sandbox", "--disable-gpu", "--allow-loopback-in-peer-connection", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  });
  const seen: Record<string, unknown> = {};
  try {
    const api = await newAccount(app.url);
    const stream = (await api.post("stream", { name: "from the browser" })).body;
    const page = await browser.newPage();
    await page.goto(`${app.url}/api/health`);
    const started = Date.now();
    seen.publish = await page.evaluate(async (key) => {
      const media = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 }, audio: true });
      const pc = new RTCPeerConnection();
      for (const track of media.getTracks()) pc.addTransceiver(track, { direction: "sendonly" });
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === "complete") resolve();
        pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
        setTimeout(resolve, 3000);
      });
      const res = await fetch(`/webrtc/${key}`, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription!.sdp });
      const answer = await res.text();
      if (res.status === 201) await pc.setRemoteDescription({ type: "answer", sdp: answer });
      (window as unknown as { pc: RTCPeerConnection }).pc = pc;
      return { status: res.status, location: res.headers.get("location"), answer: res.status === 201 ? "sdp" : answer };
    }, stream.streamKey);
    await until("the stream live", async () => (await api.get(`stream/${stream.id}`)).body.isActive === true, 30_000);
    seen.liveAfterMs = Date.now() - started;

    // Its HLS, as a player gets it.
    const sources = (await api.get(`playback/${stream.playbackId}`)).body.meta.source as { hrn: string; type: string; url: string }[];
    const hls = sources.find((s) => s.hrn === "HLS (TS)")!.url;
    seen.webrtcSource = sources.find((s) => s.hrn === "WebRTC (H264)");
    const segment = await until(
      "a segment listed",
      async () => {
        const master = await fetch(hls).then((r) => (r.ok ? r.text() : ""));
        const variant = master.split("\n").find((l) => l && !l.startsWith("#"));
        if (!variant) return undefined;
        const playlistUrl = new URL(variant, hls);
        const playlist = await fetch(playlistUrl).then((r) => (r.ok ? r.text() : ""));
        const file = playlist.split("\n").find((l) => l && !l.startsWith("#"));
        return file && new URL(file, playlistUrl).href;
      },
      30_000,
    );
    seen.playableAfterMs = Date.now() - started;
    const file = path.join(dataDir, "segment.ts");
    fs.writeFileSync(file, Buffer.from(await (await fetch(segment)).arrayBuffer()));
    seen.segment = (await ffprobe(file)).streams.map((s) => ({ type: s.codec_type, codec: s.codec_name, width: s.width, height: s.height }));

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
    const viewer = await browser.newPage();
    await viewer.goto(`${app.url}/api/health`);
    seen.whep = await viewer.evaluate(async (playbackId) => {
      const pc = new RTCPeerConnection();
      pc.addTransceiver("video", { direction: "recvonly" });
      pc.addTransceiver("audio", { direction: "recvonly" });
      const video = document.createElement("video");
      video.muted = true;
      video.autoplay = true;
      document.body.append(video);
      pc.addEventListener("track", (e) => (video.srcObject = e.streams[0] ?? new MediaStream([e.track])));
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === "complete") resolve();
        pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
        setTimeout(resolve, 3000);
      });
      const started = performance.now();
      const res = await fetch(`/webrtc/${playbackId}`, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription!.sdp });
      if (res.status !== 201) return { status: res.status, body: await res.text() };
      await pc.setRemoteDescription({ type: "answer", sdp: await res.text() });
      const framed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 10_000);
        video.requestVideoFrameCallback(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      const firstFrameMs = Math.round(performance.now() - started);
      // Frames keep coming: a dozen within 10 s at most.
      const deadline = performance.now() + 10_000;
      while (video.getVideoPlaybackQuality().totalVideoFrames <= 12 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return {
        status: 201,
        framed,
        firstFrameMs,
        width: video.videoWidth,
        frames: video.getVideoPlaybackQuality().totalVideoFrames,
        location: res.headers.get("location"),
      };
    }, stream.playbackId);
    await viewer.close();

    const location = (seen.publish as { location: string }).location;
    seen.deleteStatus = (await fetch(new URL(location, app.url), { method: "DELETE" })).status;
    await until("the stream idle", async () => (await api.get(`stream/${stream.id}`)).body.isActive === false, 30_000);
    seen.ended = true;

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
    await card.getByRole("button", { name: "Stop broadcast" }).waitFor({ timeout: 30_000 });
    await until("the dashboard's stream live", async () => (await api.get(`stream/${other.id}`)).body.isActive === true, 30_000);
    seen.dashboardLive = true;
    if (process.env.SCREENSHOT_DIR) await dashboard.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, "browser-broadcast.png"), fullPage: true });
    await card.getByRole("button", { name: "Stop broadcast" }).click();
    await until("the dashboard's stream idle", async () => (await api.get(`stream/${other.id}`)).body.isActive === false, 30_000);
    seen.dashboardEnded = await card.getByRole("button", { name: "Turn on camera" }).isVisible();
  } catch (err) {
    seen.error = err instanceof Error ? err.message : String(err);
  } finally {
    await browser.close();
    await app.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`RESULT ${JSON.stringify(seen)}`);
}

void main();
