"use client";

import type Hls from "hls.js";
import type { HlsConfig, Level } from "hls.js";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { tokenOf, withoutToken, withToken, type MediaFormat } from "@/lib/client/playback";

/** One entry of the quality menu. */
export interface Quality {
  /** Index in `hls.levels`. */
  index: number;
  label: string;
  /** Shown dimmed after the label: the source's own resolution. */
  detail?: string;
  source: boolean;
  height: number;
  bitrate: number;
}

export interface HlsEngine {
  /** Source first, then the renditions from the tallest; empty when the browser plays HLS itself. */
  qualities: Quality[];
  /** The level asked for; -1 is automatic. */
  selected: number;
  /** The level on screen now, or -1 before the first one loads. */
  current: number;
  /** The media stopped loading and a new attempt is scheduled. */
  reconnecting: boolean;
  /** Neither Media Source nor native HLS: nothing to play with. */
  unsupported: boolean;
  selectQuality: (index: number) => void;
  /** The position a live stream should play at (a few segments behind the newest). */
  liveEdge: () => number | null;
  /** How far behind the newest media the viewer plays (s), as hls.js estimates it; null before it knows or without hls.js. */
  latencyS: () => number | null;
}

// Live playlists are a sliding window of six ~2 s segments: play three segments behind
// the newest (about 6 s of latency, with room to ride out a slow segment), jump forward
// when more than five behind, and keep little already-played video in memory.
const LIVE_CONFIG: Partial<HlsConfig> = {
  liveSyncDurationCount: 3,
  liveMaxLatencyDurationCount: 5,
  backBufferLength: 10,
  capLevelToPlayerSize: true,
};
const VOD_CONFIG: Partial<HlsConfig> = { capLevelToPlayerSize: true };

/** How often a video on demand's growing master (its ladder still transcoding) is looked at again. */
const GROWING_MASTER_POLL_MS = 10_000;

/** Each failed attempt waits twice as long before the next, up to this. */
const MAX_RETRY_MS = 8_000;

const HLS_MIME = "application/vnd.apple.mpegurl";
const hasMediaSource = () => "MediaSource" in window || "ManagedMediaSource" in window;

const isSource = (level: Level) => /^source$/i.test(level.name ?? "") || /(^|\/)source(\/|\.m3u8)/.test(level.uri ?? "");
const kbps = (bitrate: number) => `${Math.round(bitrate / 1000)} kbps`;
/** The variant URLs of a master playlist, absolute. */
const variantUrls = (master: string, base: string) =>
  [...master.matchAll(/^#EXT-X-STREAM-INF:.*\n+([^#\n][^\n]*)/gm)].map((m) => new URL(m[1].trim(), base).href);
/** Castline serves a master whose ladder is still transcoding for seconds only (a final one for an hour). */
const growing = (res: Response) => Number(/max-age=(\d+)/.exec(res.headers.get("cache-control") ?? "")?.[1] ?? 0) < 60;

export function toQualities(levels: Level[]): Quality[] {
  const heights = new Map<number, number>();
  for (const l of levels) if (!isSource(l) && l.height) heights.set(l.height, (heights.get(l.height) ?? 0) + 1);
  return levels
    .map((level, index): Quality => {
      const source = isSource(level);
      const base = { index, source, height: level.height, bitrate: level.bitrate };
      if (source) return { ...base, label: "Source", detail: level.height ? `${level.height}p` : undefined };
      if (!level.height) return { ...base, label: level.name || kbps(level.bitrate) };
      // Two renditions of one height tell themselves apart by bitrate.
      const label = (heights.get(level.height) ?? 0) > 1 ? `${level.height}p · ${kbps(level.bitrate)}` : `${level.height}p`;
      return { ...base, label };
    })
    .sort((a, b) => Number(b.source) - Number(a.source) || b.height - a.height || b.bitrate - a.bitrate);
}

/**
 * Plays an HLS URL in a video element: hls.js (loaded on first use; the light build for live) where
 * Media Source exists, else the browser's own HLS (Safari on iPhone); a plain file as it is. A fatal error tears
 * the player down and starts again after a growing pause, where the viewer was (a live stream: at
 * its live edge); `onFatal` tells the caller, which may find that the stream has simply ended, or
 * bring a fresh playback token (a private stream's or video's `tkn`) for that new start. A new
 * token alone does not restart anything: hls.js's next requests carry it.
 */
export function useHls(
  videoRef: RefObject<HTMLVideoElement | null>,
  src: string,
  {
    live,
    format = "hls",
    onFatal,
    enabled = true,
  }: { live: boolean; format?: MediaFormat; onFatal?: (why?: string) => void /** false while the element plays something else (WebRTC) */; enabled?: boolean },
): HlsEngine {
  const hlsRef = useRef<Hls | null>(null);
  const srcRef = useRef(src);
  const selectedRef = useRef(-1);
  const onFatalRef = useRef(onFatal);
  const [qualities, setQualities] = useState<Quality[]>([]);
  const [selected, setSelected] = useState(-1);
  const [current, setCurrent] = useState(-1);
  const [reconnecting, setReconnecting] = useState(false);
  const [unsupported, setUnsupported] = useState(false);

  useEffect(() => {
    onFatalRef.current = onFatal;
  }, [onFatal]);

  useEffect(() => {
    srcRef.current = src;
  }, [src]);
  const media = withoutToken(src);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-attached when the media changes, not its token (src is read through srcRef)
  useEffect(() => {
    const element = videoRef.current;
    if (!element || !enabled) return;
    const video: HTMLVideoElement = element;
    let disposed = false;
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopNative: (() => void) | undefined;
    let masterPoll: ReturnType<typeof setTimeout> | undefined;
    // Where the next start begins: where a video on demand was when it broke.
    let resumeAt: number | undefined;
    // Whether the viewer means the video to play. Every new load (a restart, or hls.js attaching a
    // fresh Media Source when the master is loaded again) pauses the element without a "pause"
    // event and rejects a pending play(), so the element's own state cannot say it afterwards:
    // the viewer's last play or pause does, and each new start plays on when it was a play.
    let wantsPlay = video.autoplay || !video.paused;
    const onPlay = () => (wantsPlay = true);
    const onPause = () => (wantsPlay = false);
    video.addEventListener("play", onPlay);
    video.addEventListener("pause", onPause);
    const playOn = () => {
      if (wantsPlay && video.paused) video.play().catch(() => {});
    };

    const teardown = () => {
      clearTimeout(masterPoll);
      hlsRef.current?.destroy();
      hlsRef.current = null;
      stopNative?.();
      stopNative = undefined;
    };

    /** `why`: hls.js's type of a fatal error (a native player's error is the element's own "error" event). */
    const restartLater = (why?: string) => {
      // A start that failed before loading anything leaves the place of the one before it.
      if (video.readyState >= HTMLMediaElement.HAVE_METADATA) resumeAt = live ? undefined : video.currentTime;
      teardown();
      setReconnecting(true);
      setCurrent(-1);
      onFatalRef.current?.(why);
      retry = setTimeout(start, Math.min(1000 * 2 ** failures++, MAX_RETRY_MS));
    };

    const recovered = () => {
      failures = 0;
      resumeAt = undefined;
      setReconnecting(false);
    };

    const playNatively = () => {
      const onError = () => restartLater();
      const onMetadata = () => {
        if (resumeAt !== undefined) video.currentTime = resumeAt;
        playOn();
      };
      video.addEventListener("error", onError);
      video.addEventListener("loadeddata", recovered);
      video.addEventListener("loadedmetadata", onMetadata);
      video.src = srcRef.current;
      stopNative = () => {
        video.removeEventListener("error", onError);
        video.removeEventListener("loadeddata", recovered);
        video.removeEventListener("loadedmetadata", onMetadata);
        video.removeAttribute("src");
        video.load();
      };
    };

    async function start() {
      if (disposed) return;
      if (format === "file" || (!hasMediaSource() && video.canPlayType(HLS_MIME))) return playNatively();
      // Live streams need none of the full build's extras; assets may have captions (subtitles renditions).
      const { default: HlsPlayer } = await (live ? import("hls.js/light") : import("hls.js"));
      if (disposed) return;
      if (!HlsPlayer.isSupported()) {
        if (video.canPlayType(HLS_MIME)) return playNatively();
        setUnsupported(true);
        return;
      }
      const { Events, ErrorTypes } = HlsPlayer;
      const hls = new HlsPlayer({
        ...(live ? LIVE_CONFIG : VOD_CONFIG),
        startPosition: resumeAt ?? -1,
        // Playlists and segments name the playback token they were served with; ask with the newest one.
        xhrSetup: (xhr, url) => {
          const token = tokenOf(srcRef.current);
          xhr.open("GET", token ? withToken(url, token) : url, true);
        },
      });
      hlsRef.current = hls;
      let mediaRecoveries = 0;
      // The rendition chosen in the menu, while the master is loaded again (its index may move).
      let chosenUrl: string | undefined;

      // hls.js reads a master once; while a video on demand's ladder transcodes, renditions join
      // it one by one. Look again now and then, and load it again (where the viewer is) when it lists a new one.
      const watchMaster = async () => {
        try {
          const res = await fetch(srcRef.current, { credentials: "omit", cache: "no-store" });
          if (disposed || hlsRef.current !== hls || !res.ok) return;
          // Renditions are told apart without their playback tokens, which change.
          const known = new Set(hls.levels.flatMap((level) => level.url.map(withoutToken)));
          if (variantUrls(await res.text(), res.url).some((url) => !known.has(withoutToken(url)))) {
            const chosen = hls.levels[selectedRef.current]?.url[0];
            chosenUrl = chosen && withoutToken(chosen);
            hls.config.startPosition = video.currentTime;
            hls.loadSource(srcRef.current);
          } else if (growing(res)) masterPoll = setTimeout(watchMaster, GROWING_MASTER_POLL_MS);
        } catch {
          if (!disposed) masterPoll = setTimeout(watchMaster, GROWING_MASTER_POLL_MS);
        }
      };

      hls.on(Events.MANIFEST_PARSED, (_event, data) => {
        setQualities(toQualities(data.levels));
        if (chosenUrl) {
          selectedRef.current = data.levels.findIndex((level) => level.url.map(withoutToken).includes(chosenUrl!));
          setSelected(selectedRef.current);
          chosenUrl = undefined;
        }
        // A choice made before a reconnect still holds, if the rendition still exists.
        if (selectedRef.current >= data.levels.length) {
          selectedRef.current = -1;
          setSelected(-1);
        }
        if (selectedRef.current >= 0) hls.currentLevel = selectedRef.current;
        playOn();
        if (!live) masterPoll = setTimeout(watchMaster, GROWING_MASTER_POLL_MS);
      });
      hls.on(Events.LEVEL_SWITCHED, (_event, data) => setCurrent(data.level));
      hls.on(Events.FRAG_BUFFERED, recovered);
      hls.on(Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        // A decoder hiccup is usually fixed in place; anything else needs a fresh start.
        if (data.type === ErrorTypes.MEDIA_ERROR && mediaRecoveries++ < 2) {
          hls.recoverMediaError();
          return;
        }
        restartLater(data.type);
      });
      hls.loadSource(srcRef.current);
      hls.attachMedia(video);
    }

    void start();
    return () => {
      disposed = true;
      clearTimeout(retry);
      video.removeEventListener("play", onPlay);
      video.removeEventListener("pause", onPause);
      teardown();
      setQualities([]);
      setCurrent(-1);
      setReconnecting(false);
    };
  }, [videoRef, media, live, format, enabled]);

  const selectQuality = useCallback((index: number) => {
    selectedRef.current = index;
    setSelected(index);
    // currentLevel switches at once (dropping what is buffered); -1 hands back to ABR.
    if (hlsRef.current) hlsRef.current.currentLevel = index;
  }, []);

  const liveEdge = useCallback(() => {
    const hls = hlsRef.current;
    if (hls) return hls.liveSyncPosition;
    const video = videoRef.current;
    const seekable = video?.seekable;
    return seekable?.length ? Math.max(seekable.start(0), seekable.end(seekable.length - 1) - 6) : null;
  }, [videoRef]);

  const latencyS = useCallback(() => {
    const latency = hlsRef.current?.latency;
    return latency ? latency : null;
  }, []);

  return { qualities, selected, current, reconnecting, unsupported, selectQuality, liveEdge, latencyS };
}
