"use client";

import { useCallback, useEffect, useRef, useState, type FocusEvent, type PointerEvent } from "react";
import type { MediaFormat } from "@/lib/client/playback";
import type { ViewBeacons } from "@/lib/client/view-beacons";
import { ControlButton, formatTime, Slider } from "./controls";
import {
  EnterFullscreenIcon,
  ExitFullscreenIcon,
  PauseIcon,
  PictureInPictureIcon,
  PlayIcon,
  Spinner,
  VolumeHighIcon,
  VolumeLowIcon,
  VolumeMutedIcon,
} from "./icons";
import { CaptionsMenu, CaptionText, useCaptions } from "./captions-menu";
import { QualityMenu } from "./quality-menu";
import { SeekPreview } from "./seek-preview";
import { SpeedMenu } from "./speed-menu";
import { useHls } from "./use-hls";
import { useWhep } from "./use-whep";
import { useAutoHide, useFullscreen, useMediaState, usePictureInPicture } from "./use-media";

export interface VideoPlayerProps {
  src: string;
  live: boolean;
  format?: MediaFormat;
  /** A WebVTT thumbnail track for previews over the seek bar. */
  thumbnails?: string;
  /** The image shown before the first frame. */
  poster?: string;
  /** The content's name, shown over the video with the controls. */
  title?: string;
  /** The keyboard shortcuts work while nothing on the page has focus (the player is the whole page). */
  pageShortcuts?: boolean;
  /** Start on its own; browsers allow that only muted, hence `muted` by default. */
  autoPlay?: boolean;
  muted?: boolean;
  /** The media stopped loading (the player retries by itself); `why`: hls.js's type of the error. */
  onFatal?: (why?: string) => void;
  /** A live stream's WebRTC (WHEP) URL: tried first, HLS (`src`) if it does not play within seconds. */
  webrtc?: string;
  /** The view's beacons (viewer analytics): this element's playback reported to them. */
  beacons?: ViewBeacons;
}

/** The live badge's mode and how far behind the broadcast the viewer is, e.g. "WebRTC · 0.3 s", "HLS · 6.2 s". */
function modeLabel(mode: string, latencyS: number | null | undefined) {
  if (latencyS === null || latencyS === undefined) return mode;
  if (latencyS < 0.1) return `${mode} · < 0.1 s`;
  return `${mode} · ${latencyS < 10 ? latencyS.toFixed(1) : Math.round(latencyS)} s`;
}

/** Further behind the live edge than this (seconds) and the LIVE badge offers to catch up. */
const BEHIND_LIVE_S = 4;

/** Keys the player answers, for `aria-keyshortcuts`. */
const SHORTCUTS = "Space k m f i ArrowLeft ArrowRight ArrowUp ArrowDown";

type KeyPress = Pick<globalThis.KeyboardEvent, "key" | "target" | "defaultPrevented" | "ctrlKey" | "metaKey" | "altKey" | "preventDefault">;

/**
 * An HLS video with its controls overlay: title, play, volume, LIVE, seek (on demand, with previews), captions,
 * speed (on demand), quality, picture-in-picture, fullscreen; and keyboard shortcuts for the most of them.
 */
export function VideoPlayer({
  src,
  live,
  format = "hls",
  thumbnails,
  poster,
  title,
  pageShortcuts = false,
  autoPlay = true,
  muted = true,
  onFatal,
  webrtc,
  beacons,
}: VideoPlayerProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);

  // React does not reliably reflect `muted` onto the element, and autoplay depends on it.
  useEffect(() => {
    if (videoRef.current) videoRef.current.muted = videoRef.current.defaultMuted = muted;
  }, [muted]);

  const rtc = useWhep(videoRef, live ? webrtc : undefined);
  const failed = useCallback(
    (why?: string) => {
      if (why) beacons?.error(why);
      onFatal?.(why);
    },
    [beacons, onFatal],
  );
  const engine = useHls(videoRef, src, { live, format, onFatal: failed, enabled: rtc.mode === "hls" });
  useEffect(() => (beacons && videoRef.current ? beacons.attach(videoRef.current) : undefined), [beacons]);
  useEffect(() => beacons?.mode(format === "file" ? "mp4" : rtc.mode === "webrtc" ? "webrtc" : "hls"), [beacons, format, rtc.mode]);
  const media = useMediaState(videoRef);
  const captions = useCaptions(videoRef);
  const fullscreen = useFullscreen(rootRef, videoRef);
  const pip = usePictureInPicture(videoRef);
  const [menuOpen, setMenuOpen] = useState(false);
  const [keyboardFocus, setKeyboardFocus] = useState(false);
  const [volumeTouched, setVolumeTouched] = useState(false);
  const controls = useAutoHide(!media.paused, menuOpen || keyboardFocus);

  const edge = live ? engine.liveEdge() : null;
  const behindLive = live && media.hasData && (media.paused || (edge !== null && edge - media.currentTime > BEHIND_LIVE_S));
  const loading = engine.reconnecting || !media.hasData || (media.waiting && !media.paused);

  const withVideo = (act: (video: HTMLVideoElement) => void) => {
    if (videoRef.current) act(videoRef.current);
  };

  const goLive = () =>
    withVideo((video) => {
      const target = engine.liveEdge();
      if (target !== null) video.currentTime = target;
      void video.play().catch(() => {});
    });

  const togglePlay = () =>
    withVideo((video) => {
      if (!video.paused && !video.ended) return video.pause();
      // A live stream resumes at live: its short window has moved on while paused.
      if (behindLive) return goLive();
      void video.play().catch(() => {});
    });

  const toggleMute = () =>
    withVideo((video) => {
      video.muted = !video.muted;
      if (!video.muted && video.volume === 0) video.volume = 0.5;
      setVolumeTouched(true);
    });

  const setVolume = (volume: number) =>
    withVideo((video) => {
      video.volume = Math.min(1, Math.max(0, volume));
      video.muted = video.volume === 0;
      setVolumeTouched(true);
    });

  const seek = (time: number) =>
    withVideo((video) => {
      video.currentTime = Math.min(Math.max(0, time), video.duration || 0);
    });

  // The default rate too: a reload after a network failure starts again at it.
  const setRate = (rate: number) =>
    withVideo((video) => {
      video.playbackRate = video.defaultPlaybackRate = rate;
    });

  const onKeyDown = (event: KeyPress) => {
    const target = event.target as HTMLElement;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || target.closest('[role="menu"]')) return;
    const onButton = target.tagName === "BUTTON";
    const onSlider = target.tagName === "INPUT";
    switch (event.key) {
      case " ":
      case "k":
      case "K":
        if (event.key === " " && onButton) return;
        togglePlay();
        break;
      case "m":
      case "M":
        toggleMute();
        break;
      case "f":
      case "F":
        if (!fullscreen.supported) return;
        fullscreen.toggle();
        break;
      case "i":
      case "I":
        if (!pip.supported) return;
        pip.toggle();
        break;
      case "ArrowLeft":
      case "ArrowRight":
        if (live || onSlider) return;
        // From the element's own values: a key pressed again before the next render counts from the last one.
        withVideo((video) => seek(video.currentTime + (event.key === "ArrowLeft" ? -5 : 5)));
        break;
      case "ArrowUp":
      case "ArrowDown":
        if (onSlider) return;
        withVideo((video) => setVolume((video.muted ? 0 : video.volume) + (event.key === "ArrowUp" ? 0.1 : -0.1)));
        break;
      default:
        return;
    }
    event.preventDefault();
    controls.poke();
  };

  // The page's keys reach the player when nothing else has focus (the page just opened, or a click on the black).
  const onPageKey = useRef(onKeyDown);
  useEffect(() => {
    onPageKey.current = onKeyDown;
  });
  useEffect(() => {
    if (!pageShortcuts) return;
    const listener = (event: globalThis.KeyboardEvent) => {
      if (event.target === document.body || event.target === document.documentElement) onPageKey.current(event);
    };
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, [pageShortcuts]);

  // Controls stay up while someone tabs through them, not after a mouse click left focus there.
  const onFocus = (event: FocusEvent) => setKeyboardFocus(event.target.matches(":focus-visible"));
  const onBlur = (event: FocusEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setKeyboardFocus(false);
  };

  // A tap shows or hides the controls (a touch screen has no hover); a click plays or pauses.
  const onVideoPointerUp = (event: PointerEvent) => {
    if (event.pointerType === "mouse") return togglePlay();
    if (controls.visible && !media.paused) controls.hide();
    else controls.poke();
  };

  const VolumeIcon = media.muted ? VolumeMutedIcon : media.volume < 0.5 ? VolumeLowIcon : VolumeHighIcon;
  const showControls = controls.visible;

  return (
    <div
      ref={rootRef}
      tabIndex={0}
      aria-label={live ? "Live video player" : "Video player"}
      aria-keyshortcuts={SHORTCUTS}
      onKeyDown={onKeyDown}
      onPointerMove={(event) => event.pointerType === "mouse" && controls.poke()}
      onPointerLeave={(event) => event.pointerType === "mouse" && !media.paused && !menuOpen && controls.hide()}
      onFocus={onFocus}
      onBlur={onBlur}
      className={`absolute inset-0 overflow-hidden bg-black text-white outline-none select-none focus-visible:ring-2 focus-visible:ring-white/40 focus-visible:ring-inset ${showControls ? "" : "cursor-none"}`}
    >
      <video
        ref={videoRef}
        data-testid="player-video"
        className="absolute inset-0 size-full object-contain"
        autoPlay={autoPlay}
        muted={muted}
        playsInline
        preload="auto"
        poster={poster}
        onPointerUp={onVideoPointerUp}
        onDoubleClick={() => fullscreen.supported && fullscreen.toggle()}
      />

      <CaptionText cues={captions.cues} raised={showControls} />

      {loading && (
        <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center gap-3" role="status">
          <Spinner className="size-10 text-white/90 @md:size-12" />
          <span className={engine.reconnecting ? "text-sm font-medium text-white/80 drop-shadow" : "sr-only"}>
            {engine.reconnecting ? "Reconnecting…" : "Loading…"}
          </span>
        </div>
      )}

      {engine.unsupported && (
        <p role="alert" className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-white/80">
          This browser cannot play this video.
        </p>
      )}

      {media.paused && !loading && (
        <button
          type="button"
          onClick={togglePlay}
          aria-label="Play"
          className="absolute top-1/2 left-1/2 flex size-16 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-black/55 text-white shadow-xl ring-1 ring-white/15 backdrop-blur-sm transition outline-none hover:scale-105 hover:bg-black/70 focus-visible:ring-2 focus-visible:ring-white/80 @md:size-20"
        >
          <PlayIcon className="ml-1 size-8 @md:size-10" />
        </button>
      )}

      <div
        className={`pointer-events-none absolute inset-x-0 top-0 h-24 bg-linear-to-b from-black/70 to-transparent transition-opacity duration-300 ${
          title && showControls ? "opacity-100" : "opacity-0"
        }`}
      />
      <div className="pointer-events-none absolute inset-x-0 top-0 flex items-start justify-between gap-2 p-3 @md:p-4">
        <div className="flex min-w-0 items-center gap-2.5">
          {live && (
            <button
              type="button"
              data-testid="live-badge"
              onClick={goLive}
              disabled={!behindLive}
              aria-label={behindLive ? "Go to live" : "Live"}
              title={behindLive ? "Go to live" : undefined}
              className={`pointer-events-auto inline-flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1 text-xs font-bold tracking-wider text-white shadow-md transition outline-none focus-visible:ring-2 focus-visible:ring-white/80 disabled:cursor-default ${
                behindLive ? "bg-zinc-700/90 hover:bg-zinc-600" : "bg-red-600"
              }`}
            >
              <span className={`size-1.5 rounded-full ${behindLive ? "bg-zinc-300" : "animate-pulse bg-white"}`} />
              LIVE
            </button>
          )}
          {live && rtc.mode !== "connecting" && (
            <span
              data-testid="playback-mode"
              data-mode={rtc.mode}
              title={rtc.mode === "webrtc" ? "Playing over WebRTC: under a second behind the broadcast" : "Playing over HLS"}
              className={`shrink-0 rounded-md bg-black/55 px-2 py-1 text-xs font-medium text-white/90 tabular-nums shadow-md transition-opacity duration-300 ${showControls ? "opacity-100" : "opacity-0"}`}
            >
              {modeLabel(rtc.mode === "webrtc" ? "WebRTC" : "HLS", rtc.mode === "webrtc" ? rtc.latencyS : engine.latencyS())}
            </span>
          )}
          {title && (
            <h1
              data-testid="player-title"
              className={`truncate text-sm font-semibold text-white drop-shadow-md transition-opacity duration-300 @md:text-lg ${showControls ? "opacity-100" : "opacity-0"}`}
            >
              {title}
            </h1>
          )}
        </div>
        {media.muted && !volumeTouched && media.hasData && (
          <button
            type="button"
            onClick={toggleMute}
            className="pointer-events-auto inline-flex shrink-0 items-center gap-2 rounded-full bg-black/60 py-1.5 pr-3.5 pl-2.5 text-sm font-medium text-white shadow-lg ring-1 ring-white/15 backdrop-blur-sm transition outline-none hover:bg-black/75 focus-visible:ring-2 focus-visible:ring-white/80"
          >
            <VolumeMutedIcon className="size-5" />
            Unmute
          </button>
        )}
      </div>

      <div
        className={`absolute inset-x-0 bottom-0 bg-linear-to-t from-black/85 via-black/40 to-transparent px-2 pt-14 pb-1.5 transition-opacity duration-300 @md:px-3 @md:pb-2 ${
          showControls ? "opacity-100" : "pointer-events-none opacity-0"
        }`}
        onPointerEnter={controls.poke}
      >
        {!live && (
          <SeekPreview vttUrl={thumbnails} duration={media.duration} className="mx-2 mb-0.5">
            <Slider
              label="Seek"
              value={media.currentTime}
              max={media.duration}
              step={0.1}
              buffered={media.bufferedEnd}
              valueText={`${formatTime(media.currentTime)} of ${formatTime(media.duration)}`}
              onChange={seek}
              fill="bg-red-600"
            />
          </SeekPreview>
        )}
        <div className="flex items-center gap-0.5">
          <ControlButton label={media.paused ? "Play" : "Pause"} shortcut="k" onClick={togglePlay}>
            {media.paused ? <PlayIcon className="size-6" /> : <PauseIcon className="size-6" />}
          </ControlButton>

          <div className="group/volume flex items-center">
            <ControlButton label={media.muted ? "Unmute" : "Mute"} shortcut="m" onClick={toggleMute}>
              <VolumeIcon className="size-6" />
            </ControlButton>
            <Slider
              label="Volume"
              className="w-0 overflow-hidden transition-[width,margin] duration-200 group-hover/volume:mr-2 group-hover/volume:w-20 group-has-focus-visible/volume:mr-2 group-has-focus-visible/volume:w-20"
              value={media.muted ? 0 : media.volume}
              max={1}
              step={0.05}
              valueText={`${Math.round((media.muted ? 0 : media.volume) * 100)}%`}
              onChange={setVolume}
            />
          </div>

          {!live && media.duration > 0 && (
            <span className="ml-1.5 shrink-0 text-[13px] font-medium whitespace-nowrap text-white/90 tabular-nums" data-testid="player-time">
              {formatTime(media.currentTime)} <span className="text-white/50">/ {formatTime(media.duration)}</span>
            </span>
          )}

          <span className="flex-1" />

          <CaptionsMenu captions={captions} onOpenChange={setMenuOpen} />

          {!live && <SpeedMenu rate={media.playbackRate} onChoose={setRate} onOpenChange={setMenuOpen} />}

          {engine.qualities.length > 1 && <QualityMenu engine={engine} onOpenChange={setMenuOpen} />}

          {/* On a phone-sized player, room goes to the time: picture-in-picture stays on its key (i). */}
          {pip.supported && (
            <ControlButton
              label={pip.active ? "Exit picture-in-picture" : "Picture-in-picture"}
              shortcut="i"
              onClick={pip.toggle}
              className="@max-[26rem]:hidden"
            >
              <PictureInPictureIcon className="size-[22px]" />
            </ControlButton>
          )}

          {fullscreen.supported && (
            <ControlButton label={fullscreen.active ? "Exit fullscreen" : "Fullscreen"} shortcut="f" onClick={fullscreen.toggle}>
              {fullscreen.active ? <ExitFullscreenIcon className="size-[22px]" /> : <EnterFullscreenIcon className="size-[22px]" />}
            </ControlButton>
          )}
        </div>
      </div>
    </div>
  );
}
