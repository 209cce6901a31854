"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { fetchPlayback, type Playback, type ViewerCredential } from "@/lib/client/playback";

export type PlaybackState = Playback | { status: "loading" } | { status: "unreachable" };

/** How often a waiting player asks again: an idle stream starts playing within this long of going live. */
export const PLAYBACK_POLL_MS = 5_000;

const same = (a: PlaybackState, b: PlaybackState) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A playback ID's state, kept current: asked again every few seconds while the stream is
 * offline or between broadcasts (to start when it goes live) or live (to notice the end), and not again once a
 * video on demand is playable, or known to be private or refused (while the owner's access check
 * is unavailable, it asks again). `refresh` asks at once, e.g. when the
 * media stops loading (its playback token may have expired: the answer brings a fresh one).
 */
export function usePlayback(
  playbackId: string,
  { jwt, accessKey, session, embedGrant }: ViewerCredential = {},
): { playback: PlaybackState; refresh: () => void } {
  const [playback, setPlayback] = useState<PlaybackState>({ status: "loading" });
  const refreshRef = useRef<() => void>(() => {});

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inflight: AbortController | undefined;
    let disposed = false;

    // One failed check does not stop a video (or a replay) that is playing: its own loading retries.
    const update = (next: PlaybackState) =>
      setPlayback((prev) => (same(prev, next) || (next.status === "unreachable" && (prev.status === "ready" || prev.status === "ended")) ? prev : next));

    const check = async () => {
      clearTimeout(timer);
      inflight?.abort();
      const controller = (inflight = new AbortController());
      let next: PlaybackState;
      try {
        next = await fetchPlayback(playbackId, { jwt, accessKey, session, embedGrant }, controller.signal);
      } catch {
        if (controller.signal.aborted) return;
        next = { status: "unreachable" };
      }
      if (disposed || controller.signal.aborted) return;
      update(next);
      const settled = next.status === "not-found" || next.status === "private" || next.status === "refused" || (next.status === "ready" && !next.live);
      if (!settled) timer = setTimeout(check, PLAYBACK_POLL_MS);
    };

    setPlayback({ status: "loading" });
    refreshRef.current = () => void check();
    void check();
    return () => {
      disposed = true;
      clearTimeout(timer);
      inflight?.abort();
      refreshRef.current = () => {};
    };
  }, [playbackId, jwt, accessKey, session, embedGrant]);

  const refresh = useCallback(() => refreshRef.current(), []);
  return { playback, refresh };
}
