"use client";

import type { ComponentType, ReactNode } from "react";
import { withoutToken, type ViewerCredential } from "@/lib/client/playback";
import { viewerMessage, type ContentKind } from "@/lib/playback/viewer-message";
import { AlertIcon, LockIcon, OfflineIcon, Spinner } from "./icons";
import { usePlayback, type PlaybackState } from "./use-playback";
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
}

/**
 * The viewer's player for a playback ID, live or on demand: it asks the server what there
 * is to play, plays it, and while a stream is offline says so and starts by itself when
 * the broadcast begins. Fills its positioned parent; no cookies, no dashboard code, so it
 * also works inside an iframe on any site.
 */
export function Player({ playbackId, autoPlay = true, muted = true, className = "", credential, title, pageShortcuts }: PlayerProps) {
  const { playback, refresh } = usePlayback(playbackId, credential);
  return (
    <div
      data-testid="player"
      data-status={playback.status}
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
        />
      ) : (
        <PlayerMessage playback={playback} />
      )}
    </div>
  );
}

/** The player's refusal, for the page to show when it already knows (another site framing it). */
export function PlaybackRefused({ reason, kind }: { reason: string; kind?: ContentKind }) {
  return (
    <div data-testid="player" data-status="refused" className="absolute inset-0 overflow-hidden bg-black text-white scheme-light [container-type:size]">
      <PlayerMessage playback={{ status: "refused", refusal: "site-not-allowed", reason, kind }} />
    </div>
  );
}

const ICONS = { offline: OfflineIcon, alert: AlertIcon, lock: LockIcon };

/** What the player says instead of playing; the words are lib/playback/viewer-message.ts's. */
function PlayerMessage({ playback }: { playback: Exclude<PlaybackState, { status: "ready" }> }) {
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
function Message({
  icon: Icon,
  title,
  hint,
  children,
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  hint: string;
  children?: ReactNode;
}) {
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
