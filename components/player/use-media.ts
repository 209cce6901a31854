"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";

export interface MediaState {
  paused: boolean;
  muted: boolean;
  volume: number;
  currentTime: number;
  duration: number;
  /** Seconds buffered ahead of the playhead's range end, for the seek bar. */
  bufferedEnd: number;
  /** A frame is there to show (before that, a spinner rather than a play button). */
  hasData: boolean;
  /** Stalled waiting for data. */
  waiting: boolean;
  ended: boolean;
  playbackRate: number;
}

const INITIAL: MediaState = {
  paused: true,
  muted: true,
  volume: 1,
  currentTime: 0,
  duration: 0,
  bufferedEnd: 0,
  hasData: false,
  waiting: true,
  ended: false,
  playbackRate: 1,
};

const EVENTS = [
  "play",
  "pause",
  "playing",
  "waiting",
  "seeking",
  "seeked",
  "canplay",
  "loadeddata",
  "emptied",
  "timeupdate",
  "durationchange",
  "volumechange",
  "ratechange",
  "progress",
  "ended",
] as const;

function read(video: HTMLVideoElement, waiting: boolean): MediaState {
  const { buffered } = video;
  return {
    paused: video.paused,
    muted: video.muted || video.volume === 0,
    volume: video.volume,
    currentTime: video.currentTime,
    duration: Number.isFinite(video.duration) ? video.duration : 0,
    bufferedEnd: buffered.length ? buffered.end(buffered.length - 1) : 0,
    hasData: video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA,
    waiting,
    ended: video.ended,
    playbackRate: video.playbackRate,
  };
}

/** The video element's state as React state, refreshed from its media events. */
export function useMediaState(videoRef: RefObject<HTMLVideoElement | null>): MediaState {
  const [state, setState] = useState(INITIAL);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let waiting = video.readyState < HTMLMediaElement.HAVE_FUTURE_DATA;
    const update = (event?: Event) => {
      if (event?.type === "waiting" || event?.type === "seeking" || event?.type === "emptied") waiting = true;
      if (event?.type === "playing" || event?.type === "canplay" || event?.type === "seeked") waiting = false;
      setState(read(video, waiting));
    };
    update();
    for (const name of EVENTS) video.addEventListener(name, update);
    return () => {
      for (const name of EVENTS) video.removeEventListener(name, update);
    };
  }, [videoRef]);
  return state;
}

type FullscreenVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void; webkitSupportsFullscreen?: boolean };

const subscribeFullscreen = (onChange: () => void) => {
  document.addEventListener("fullscreenchange", onChange);
  return () => document.removeEventListener("fullscreenchange", onChange);
};

const noSubscription = () => () => {};

/** The Fullscreen API (false in an iframe without `allowfullscreen`), or an iPhone's video-only fullscreen. */
const fullscreenSupported = () => document.fullscreenEnabled || (!("fullscreenEnabled" in document) && "webkitEnterFullscreen" in HTMLVideoElement.prototype);

/**
 * Fullscreen for the whole player (so its controls come along); iPhones only let the
 * video itself go fullscreen. Inside an iframe it needs the embed's `allowfullscreen`.
 */
export function useFullscreen(rootRef: RefObject<HTMLElement | null>, videoRef: RefObject<HTMLVideoElement | null>) {
  const active = useSyncExternalStore(
    subscribeFullscreen,
    () => !!document.fullscreenElement && document.fullscreenElement === rootRef.current,
    () => false,
  );
  const supported = useSyncExternalStore(noSubscription, fullscreenSupported, () => false);

  const toggle = useCallback(() => {
    const root = rootRef.current;
    const video = videoRef.current as FullscreenVideo | null;
    if (document.fullscreenElement) void document.exitFullscreen();
    else if (document.fullscreenEnabled && root) void root.requestFullscreen().catch(() => {});
    else video?.webkitEnterFullscreen?.();
  }, [rootRef, videoRef]);

  return { active, supported, toggle };
}

type PresentationVideo = HTMLVideoElement & {
  webkitSupportsPresentationMode?: (mode: string) => boolean;
  webkitSetPresentationMode?: (mode: string) => void;
  webkitPresentationMode?: string;
};

const PIP_EVENTS = ["enterpictureinpicture", "leavepictureinpicture", "webkitpresentationmodechanged"] as const;

/** The standard API (Chromium, Firefox has none), or Safari's presentation modes (on iPhone too). */
const pictureInPictureSupported = (video: PresentationVideo) =>
  (document.pictureInPictureEnabled && !video.disablePictureInPicture) || !!video.webkitSupportsPresentationMode?.("picture-in-picture");

/** Picture-in-picture for the video: whether this browser offers it, whether it is on, and a toggle. */
export function usePictureInPicture(videoRef: RefObject<HTMLVideoElement | null>) {
  const [supported, setSupported] = useState(false);
  const [active, setActive] = useState(false);
  useEffect(() => {
    const video = videoRef.current as PresentationVideo | null;
    if (!video) return;
    setSupported(pictureInPictureSupported(video));
    const update = () => setActive(document.pictureInPictureElement === video || video.webkitPresentationMode === "picture-in-picture");
    for (const name of PIP_EVENTS) video.addEventListener(name, update);
    return () => {
      for (const name of PIP_EVENTS) video.removeEventListener(name, update);
    };
  }, [videoRef]);

  const toggle = useCallback(() => {
    const video = videoRef.current as PresentationVideo | null;
    if (!video) return;
    if (video.webkitSetPresentationMode && !document.pictureInPictureEnabled) {
      video.webkitSetPresentationMode(video.webkitPresentationMode === "picture-in-picture" ? "inline" : "picture-in-picture");
    } else if (document.pictureInPictureElement === video) void document.exitPictureInPicture().catch(() => {});
    // Refused before the video has metadata, or without a user gesture: nothing to do but stay inline.
    else void video.requestPictureInPicture().catch(() => {});
  }, [videoRef]);

  return { supported, active, toggle };
}

/**
 * Whether the controls show: always while paused or `hold` (a menu is open, focus is in
 * the controls), otherwise for a moment after the viewer moves, taps or presses a key.
 */
export function useAutoHide(playing: boolean, hold: boolean, delayMs = 2_500) {
  const [recent, setRecent] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const poke = useCallback(() => {
    setRecent(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setRecent(false), delayMs);
  }, [delayMs]);
  const hide = useCallback(() => {
    clearTimeout(timer.current);
    setRecent(false);
  }, []);
  // Playback starting counts as activity: the controls fade a moment later.
  useEffect(() => {
    if (playing) poke();
  }, [playing, poke]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { visible: !playing || hold || recent, poke, hide };
}
