import { gatheredOffer } from "./whip";

/**
 * Watching a live stream over WHEP from the browser (the player's low-latency mode): one
 * non-trickle offer POSTed to the playback info's WebRTC URL (its playback token in the URL, as
 * the HLS URL's), whose answer's Location is DELETEd when the viewer leaves.
 */
export interface WhepPlay {
  pc: RTCPeerConnection;
  /** The stream's video and audio, for a video element's srcObject. */
  media: MediaStream;
  stop(): void;
}

/** WebRTC cannot play here: the server said so (406: not live, or not over WebRTC; a refusal), or the browser has no way to reach it. */
export class WhepUnavailable extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function playOverWhep(url: string, signal?: AbortSignal): Promise<WhepPlay> {
  const pc = new RTCPeerConnection();
  try {
    pc.addTransceiver("video", { direction: "recvonly" });
    pc.addTransceiver("audio", { direction: "recvonly" });
    // Gathering in a page is quick; the player falls back to HLS within seconds, so it waits less.
    const offer = await gatheredOffer(pc, 1500);
    // No address at all (a browser or network without UDP): nothing the server answers could connect.
    if (!/^a=candidate:/m.test(offer)) throw new WhepUnavailable(0, "the browser found no address for WebRTC");
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/sdp" }, body: offer, credentials: "omit", signal });
    const answer = await res.text();
    if (res.status !== 201) throw new WhepUnavailable(res.status, `the server answered ${res.status}`);
    await pc.setRemoteDescription({ type: "answer", sdp: answer });
    const location = res.headers.get("location");
    const media = new MediaStream(pc.getReceivers().map((r) => r.track));
    return {
      pc,
      media,
      stop() {
        pc.close();
        if (location) void fetch(new URL(location, url), { method: "DELETE", credentials: "omit", keepalive: true }).catch(() => undefined);
      },
    };
  } catch (err) {
    pc.close();
    throw err;
  }
}

/**
 * How far behind the sender the viewer is, as WebRTC's own statistics tell it: half the round
 * trip, what the jitter buffer holds, and decoding (seconds, averages since the start). It leaves
 * out the encoder, which the server's side adds (a frame or two with x264's zerolatency).
 */
export async function whepLatencyS(pc: RTCPeerConnection): Promise<number | undefined> {
  let rtt = 0;
  let video: Record<string, number> | undefined;
  for (const s of (await pc.getStats()).values()) {
    if (s.type === "candidate-pair" && s.nominated && typeof s.currentRoundTripTime === "number") rtt = s.currentRoundTripTime;
    if (s.type === "inbound-rtp" && s.kind === "video") video = s;
  }
  if (!video?.jitterBufferEmittedCount || !video.framesDecoded) return undefined;
  // From a frame's first packet to its decoding (the jitter buffer included), where the browser tells it.
  const received = (video.totalProcessingDelay ?? 0) / video.framesDecoded;
  return rtt / 2 + Math.max(received, video.jitterBufferDelay / video.jitterBufferEmittedCount);
}
