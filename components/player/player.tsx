"use client";

import type { ComponentType, ReactNode } from "react";
import { AlertIcon, OfflineIcon, Spinner } from "./icons";
import { usePlayback, type PlaybackState } from "./use-playback";
import { VideoPlayer } from "./video-player";

export interface PlayerProps {
  playbackId: string;
  autoPlay?: boolean;
  muted?: boolean;
  className?: string;
}

/**
 * The viewer's player for a playback ID, live or on demand: it asks the server what there
 * is to play, plays it, and while a stream is offline says so and starts by itself when
 * the broadcast begins. Fills its positioned parent; no cookies, no dashboard code, so it
 * also works inside an iframe on any site.
 */
export function Player({ playbackId, autoPlay = true, muted = true, className = "" }: PlayerProps) {
  const { playback, refresh } = usePlayback(playbackId);
  return (
    <div
      data-testid="player"
      data-status={playback.status}
      className={`absolute inset-0 overflow-hidden bg-black text-white [container-type:size] ${className}`}
    >
      {playback.status === "ready" ? (
        <VideoPlayer
          key={playback.src}
          src={playback.src}
          live={playback.live}
          format={playback.format}
          thumbnails={playback.thumbnails}
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

function PlayerMessage({ playback }: { playback: Exclude<PlaybackState, { status: "ready" }> }) {
  switch (playback.status) {
    case "loading":
      return (
        <Centered>
          <Spinner className="size-10 text-white/80" />
          <span className="sr-only">Loading…</span>
        </Centered>
      );
    case "offline":
      return (
        <Message icon={OfflineIcon} title="This stream is offline" hint="It will start playing here as soon as the broadcast begins.">
          <p className="mt-4 hidden items-center gap-2 text-xs text-white/40 @[16rem]:inline-flex" aria-hidden="true">
            <span className="size-1.5 animate-pulse rounded-full bg-white/50" />
            Waiting for the broadcast
          </p>
        </Message>
      );
    case "not-found":
      return <Message icon={AlertIcon} title="This video is unavailable" hint="The link may be wrong, or the stream or video has been deleted." />;
    case "unreachable":
      return <Message icon={AlertIcon} title="Can’t reach the server" hint="Trying again…" />;
  }
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
