"use client";

import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import { withoutToken, type ViewerCredential } from "@/lib/client/playback";
import { viewerMessage, type ContentKind } from "@/lib/playback/viewer-message";
import { AlertIcon, LockIcon, OfflineIcon, PlayIcon, ReplayIcon, Spinner } from "./icons";
import { usePlayback, type PlaybackState } from "./use-playback";
import { useViewBeacons } from "./use-view-beacons";
import { VideoPlayer } from "./video-player";

export interface PlayerProps {
  playbackId: string;
  autoPlay?: boolean;
  muted?: boolean;
  className?: string;
  /** What lets this viewer watch a private stream or video: the page's `?jwt=` or `?accessKey=`, or in the dashboard the creator's session. */
  credential?: ViewerCredential;
  /** The content's name, when the viewer may know it (the page knows for public content). */
  title?: string;
  /** The keyboard shortcuts work while nothing on the page has focus: set where the player is the whole page. */
  pageShortcuts?: boolean;
  /** A live stream plays over WebRTC where it can (HLS within seconds where not); false: HLS only (Livepeer's Player prop). */
  lowLatency?: boolean;
}

/**
 * The viewer's player for a playback ID, live or on demand: it asks the server what there
 * is to play, plays it, and while a stream is offline says so and starts by itself when
 * the broadcast begins; between broadcasts it offers the replay of the last one, if it was
 * recorded. Fills its positioned parent; no cookies, no dashboard code, so it also works
 * inside an iframe on any site.
 */
export function Player({ playbackId, autoPlay = true, muted = true, className = "", credential, title, pageShortcuts, lowLatency = true }: PlayerProps) {
  const { playback, refresh } = usePlayback(playbackId, credential);
  const replay = useChosenReplay(playback);
  // The creator's own previews in the dashboard are not views.
  const beacons = useViewBeacons(playbackId, playback, !credential?.session);
  const status = replay.src ? "replay" : playback.status;
  return (
    <div
      data-testid="player"
      data-status={status}
      className={`absolute inset-0 overflow-hidden bg-black text-white scheme-light [container-type:size] ${className}`}
    >
      {playback.status === "ready" ? (
        // A fresh playback token is the same media: it goes on playing (and uses the token from then on).
        <VideoPlayer
          key={withoutToken(playback.src)}
          src={playback.src}
          live={playback.live}
          format={playback.format}
          thumbnails={playback.thumbnails}
          poster={playback.poster}
          title={title}
          pageShortcuts={pageShortcuts}
          autoPlay={autoPlay}
          muted={muted}
          onFatal={refresh}
          webrtc={lowLatency ? playback.webrtc : undefined}
          beacons={beacons}
        />
      ) : replay.src ? (
        // Asked for with a click: it starts at once, with sound.
        <VideoPlayer
          key={withoutToken(replay.src)}
          src={replay.src}
          live={false}
          title={title}
          pageShortcuts={pageShortcuts}
          autoPlay
          muted={false}
          onFatal={refresh}
          beacons={beacons}
        />
      ) : (
        <PlayerMessage playback={playback} onWatchReplay={replay.watch} />
      )}
    </div>
  );
}

/**
 * The replay the viewer chose to watch, kept while the stream stays between broadcasts: a later
 * answer may name the recording's asset instead, which would start it over (a fresh playback
 * token for the same URL is taken). The stream going live again (or the replay going away) ends it.
 */
function useChosenReplay(playback: PlaybackState) {
  const [src, setSrc] = useState<string>();
  const offered = playback.status === "ended" ? playback.replay : undefined;
  useEffect(() => {
    setSrc((chosen) => (chosen && offered ? (withoutToken(chosen) === withoutToken(offered) ? offered : chosen) : undefined));
  }, [offered]);
  return { src: offered ? src : undefined, watch: () => setSrc(offered) };
}

/** The player's refusal, for the page to show when it already knows (another site framing it). */
export function PlaybackRefused({ reason, kind }: { reason: string; kind?: ContentKind }) {
  return (
    <div data-testid="player" data-status="refused" className="absolute inset-0 overflow-hidden bg-black text-white scheme-light [container-type:size]">
      <PlayerMessage playback={{ status: "refused", refusal: "site-not-allowed", reason, kind }} />
    </div>
  );
}

const ICONS = { offline: OfflineIcon, alert: AlertIcon, lock: LockIcon, replay: ReplayIcon };

/** What the player says instead of playing; the words are lib/playback/viewer-message.ts's. */
function PlayerMessage({ playback, onWatchReplay }: { playback: Exclude<PlaybackState, { status: "ready" }>; onWatchReplay?: () => void }) {
  const { icon, title, hint } = viewerMessage(playback);
  if (icon === "spinner")
    return (
      <Centered>
        <Spinner className="size-10 text-white/80" />
        <span className="sr-only">{title}</span>
      </Centered>
    );
  return (
    <Message icon={ICONS[icon]} title={title} hint={hint}>
      {playback.status === "offline" && (
        <p className="mt-4 hidden items-center gap-2 text-xs text-white/40 @[16rem]:inline-flex" aria-hidden="true">
          <span className="size-1.5 animate-pulse rounded-full bg-white/50" />
          Waiting for the broadcast
        </p>
      )}
      {playback.status === "ended" && (
        <button
          type="button"
          onClick={onWatchReplay}
          className="mt-4 inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-zinc-900 shadow-sm transition hover:bg-white/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white @md:mt-5 @md:px-5 @md:py-2.5 @md:text-base"
        >
          <PlayIcon className="size-4 @md:size-5" />
          Watch the replay
        </button>
      )}
    </Message>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="absolute inset-0 flex flex-col items-center justify-center p-6 text-center">
      {children}
    </div>
  );
}

/** What the player says instead of playing: an icon (where there is room), a title and a hint. */
function Message({ icon: Icon, title, hint, children }: { icon: ComponentType<{ className?: string }>; title: string; hint: string; children?: ReactNode }) {
  return (
    <Centered>
      <div className="mb-3 hidden size-12 items-center justify-center rounded-full bg-white/10 text-white/70 ring-1 ring-white/10 @[12rem]:flex @md:mb-4 @md:size-14">
        <Icon className="size-6 @md:size-7" />
      </div>
      <p className="text-base font-semibold tracking-tight text-white @md:text-xl">{title}</p>
      <p className="mt-1 max-w-xs text-sm text-white/60 @md:max-w-sm @md:text-base">{hint}</p>
      {children}
    </Centered>
  );
}
