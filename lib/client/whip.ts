/**
 * Publishing a MediaStream over WHIP from the browser (the dashboard's "go live from this
 * browser"): one non-trickle offer, POSTed to /webrtc with the stream key as a Bearer token, whose
 * answer's Location is DELETEd to stop.
 */
export interface WhipPublish {
  pc: RTCPeerConnection;
  stop(): Promise<void>;
}

/** Why the server refused, as it said it (a JSON `errors` list), or the status. */
export class WhipRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How long the browser may take to find its addresses before the offer goes with what it has. */
const GATHER_WITHIN_MS = 3000;

/** The offer once the browser found its addresses (non-trickle, as WHIP and WHEP servers take it). */
export async function gatheredOffer(pc: RTCPeerConnection, withinMs = GATHER_WITHIN_MS): Promise<string> {
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, withinMs);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState !== "complete") return;
      clearTimeout(timer);
      resolve();
    });
  });
  return pc.localDescription!.sdp;
}

export async function publishOverWhip(url: string, streamKey: string, media: MediaStream, maxKbps?: number): Promise<WhipPublish> {
  const pc = new RTCPeerConnection();
  for (const track of media.getTracks()) {
    const sender = pc.addTransceiver(track, { direction: "sendonly" }).sender;
    if (track.kind === "video") {
      const params: RTCRtpSendParameters & { degradationPreference?: string } = sender.getParameters();
      if (maxKbps) params.encodings = [{ ...(params.encodings?.[0] ?? {}), maxBitrate: maxKbps * 1000 }];
      // The resolution the creator chose, as an encoder such as OBS keeps it. Chrome's default
      // ("balanced") scales down on busy pictures and stayed at 640x360 with 2.5 Mb/s to spend
      // (bench realtime); kept, a busy machine costs frame rate instead.
      params.degradationPreference = "maintain-resolution";
      await sender.setParameters(params).catch(() => undefined);
    }
  }
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/sdp", authorization: `Bearer ${streamKey}` },
    body: await gatheredOffer(pc),
  });
  const text = await res.text();
  if (res.status !== 201) {
    pc.close();
    let message = `the server answered ${res.status}`;
    try {
      message = (JSON.parse(text) as { errors: string[] }).errors[0] ?? message;
    } catch {}
    throw new WhipRefused(res.status, message);
  }
  await pc.setRemoteDescription({ type: "answer", sdp: text });
  const location = res.headers.get("location");
  return {
    pc,
    async stop() {
      pc.close();
      if (location) await fetch(new URL(location, url), { method: "DELETE" }).catch(() => undefined);
    },
  };
}
