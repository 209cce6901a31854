import { type Browser, chromium, type Page } from "playwright-core";
import { CHROMIUM_WEBRTC } from "../../scripts/prerequisites";

/**
 * A browser publishing and watching over WebRTC, for the WebRTC scenarios (test/support/webrtc-*.ts),
 * each run in a network namespace of its own with loopback alone.
 */
export function launchWebrtcBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_WEBRTC.bin,
    args: [
      ...["--no-sandbox", "--disable-gpu", "--allow-loopback-in-peer-connection", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
      // Host candidates named by mDNS (a page without camera permission) wait for a multicast this
      // namespace cannot do, and ICE gathering would never complete here; on a real network it does.
      "--disable-features=WebRtcHideLocalIpsWithMdns",
      ...extraArgs,
    ],
  });
}

/**
 * The camera and microphone of `page` published over WHIP to `key`, as a browser's own code
 * would (one non-trickle offer); `videoCodec` (e.g. "video/VP8") makes the offer's video that
 * codec alone; `audio` false publishes video alone. The connection stays in the page (window.pc). What the offer's video section
 * offered is returned with the answer's status and Location.
 */
export async function publishFromPage(page: Page, key: string, videoCodec?: string, audio = true) {
  return page.evaluate(
    async ({ key, videoCodec, audio }) => {
      const media = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 }, audio });
      const pc = new RTCPeerConnection();
      for (const track of media.getTracks()) {
        const transceiver = pc.addTransceiver(track, { direction: "sendonly" });
        if (track.kind === "video" && videoCodec)
          transceiver.setCodecPreferences(RTCRtpSender.getCapabilities("video")!.codecs.filter((c) => c.mimeType === videoCodec));
      }
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === "complete") resolve();
        pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
        setTimeout(resolve, 3000);
      });
      const offer = pc.localDescription!.sdp;
      const videoSection = offer.slice(offer.indexOf("m=video"));
      const offeredVideo = [...new Set([...videoSection.matchAll(/a=rtpmap:\d+ ([\w-]+)\//g)].map((m) => m[1]))];
      const res = await fetch(`/webrtc/${key}`, { method: "POST", headers: { "content-type": "application/sdp" }, body: offer });
      const answer = await res.text();
      if (res.status === 201) await pc.setRemoteDescription({ type: "answer", sdp: answer });
      (window as unknown as { pc: RTCPeerConnection }).pc = pc;
      return { status: res.status, location: res.headers.get("location"), answer: res.status === 201 ? "sdp" : answer, offeredVideo };
    },
    { key, videoCodec, audio },
  );
}

/** A viewer over WHEP in a page of its own: the offer, the first frame's time after it, and frames coming on. */
export async function watchOverWhep(browser: Browser, origin: string, playbackId: string) {
  const viewer = await browser.newPage();
  await viewer.goto(`${origin}/api/health`);
  try {
    return await viewer.evaluate(async (playbackId) => {
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
      const audio = [...(await pc.getStats()).values()].find((s) => s.type === "inbound-rtp" && s.kind === "audio");
      return {
        status: 201,
        framed,
        firstFrameMs,
        width: video.videoWidth,
        frames: video.getVideoPlaybackQuality().totalVideoFrames,
        audioPackets: (audio?.packetsReceived as number | undefined) ?? 0,
        location: res.headers.get("location"),
      };
    }, playbackId);
  } finally {
    await viewer.close();
  }
}
