"use client";

import { useEffect, useRef, useState } from "react";
import { ViewBeacons } from "@/lib/client/view-beacons";
import type { PlaybackState } from "./use-playback";

/** What ends a view that was playing as an error: the content gone, refused, or the server out of reach. */
const FAILED: readonly PlaybackState["status"][] = ["not-found", "private", "refused", "unavailable", "unreachable"];

/**
 * The view of `playbackId` in this player, reported to Castline's viewer analytics while
 * `enabled`: one view per playback id shown (a new id, a new view), ended when the player goes.
 * A view that was playing and whose content then fails (taken down, refused) reports the error.
 */
export function useViewBeacons(playbackId: string, playback: PlaybackState, enabled: boolean): ViewBeacons | undefined {
  const [beacons, setBeacons] = useState<ViewBeacons>();
  useEffect(() => {
    if (!enabled) return;
    const view = new ViewBeacons(playbackId);
    setBeacons(view);
    return () => {
      view.end();
      setBeacons(undefined);
    };
  }, [playbackId, enabled]);
  const wasReady = useRef(false);
  useEffect(() => {
    if (playback.status === "ready") wasReady.current = true;
    else if (wasReady.current && FAILED.includes(playback.status)) {
      wasReady.current = false;
      beacons?.error(playback.status);
    }
  }, [playback.status, beacons]);
  return beacons;
}
