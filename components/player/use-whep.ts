"use client";

import { useEffect, useState, type RefObject } from "react";
import { withoutToken } from "@/lib/client/playback";
import { playOverWhep, whepLatencyS } from "@/lib/client/whep";

/** How a live stream reaches the viewer: trying WebRTC, playing over it, or HLS (forced, fallen back to, or nothing else offered). */
export type LiveMode = "connecting" | "webrtc" | "hls";

/** Without a first frame this long after trying, WebRTC gives way to HLS. */
export const WEBRTC_FALLBACK_MS = 3000;
/** How often WebRTC's latency is read again for the badge. */
const LATENCY_EVERY_MS = 2000;

/**
 * Plays a live stream over WebRTC (WHEP) in the video element, as Livepeer's player does where the
 * playback info lists it: under a second behind the broadcast instead of HLS's several. Falls
 * back to HLS (mode "hls": useHls takes the element) when no frame arrives within
 * WEBRTC_FALLBACK_MS, when the server answers 406 (not live over WebRTC) or refuses, when the
 * browser finds no network path, and when the connection fails later (the broadcast ended, its
 * node was lost: HLS and the player's polling know what comes next).
 */
export function useWhep(videoRef: RefObject<HTMLVideoElement | null>, url: string | undefined): { mode: LiveMode; latencyS?: number } {
  const [mode, setMode] = useState<LiveMode>(url ? "connecting" : "hls");
  const [latencyS, setLatencyS] = useState<number>();
  const media = url && withoutToken(url);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tried again when the stream's WebRTC source changes, not its token (the answer is read once)
  useEffect(() => {
    const video = videoRef.current;
    if (!url || !video || typeof RTCPeerConnection === "undefined") {
      setMode("hls");
      return;
    }
    setMode("connecting");
    setLatencyS(undefined);
    const controller = new AbortController();
    let stop: (() => void) | undefined;
    let stats: ReturnType<typeof setInterval> | undefined;
    let over = false;
    const end = () => {
      over = true;
      clearTimeout(fallback);
      clearInterval(stats);
      controller.abort();
      stop?.();
      if (video.srcObject) video.srcObject = null;
    };
    const giveUp = () => {
      if (over) return;
      end();
      setMode("hls");
    };
    const fallback = setTimeout(giveUp, WEBRTC_FALLBACK_MS);

    playOverWhep(url, controller.signal).then((play) => {
      if (over) return play.stop();
      stop = play.stop;
      play.pc.addEventListener("connectionstatechange", () => {
        if (play.pc.connectionState === "failed" || play.pc.connectionState === "closed") giveUp();
      });
      video.srcObject = play.media;
      video.play().catch(() => {}); // muted autoplay, or the viewer's play button
      const framed = () => {
        if (over) return;
        clearTimeout(fallback);
        setMode("webrtc");
        const read = () => void whepLatencyS(play.pc).then((s) => !over && s !== undefined && setLatencyS(s));
        read();
        stats = setInterval(read, LATENCY_EVERY_MS);
      };
      if ("requestVideoFrameCallback" in video) video.requestVideoFrameCallback(framed);
      else (video as HTMLVideoElement).addEventListener("loadeddata", framed, { once: true });
    }, giveUp);
    return end;
  }, [videoRef, media]);

  return { mode, latencyS };
}
