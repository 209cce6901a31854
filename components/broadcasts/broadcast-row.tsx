"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ChevronRightIcon, DownloadIcon, FilmIcon, PlayIcon } from "@/components/ui/icons";
import { formatDateTime, formatDuration } from "@/lib/client/format";
import type { Session } from "@/lib/sessions/schema";

/** How long a broadcast lasted (or has lasted so far), from when it started to when it ended. */
export function broadcastDuration(session: Session, now = Date.now()): number {
  const end = session.isActive ? now : (session.endedAt ?? session.lastSeen ?? session.createdAt);
  return Math.max(0, (end - session.createdAt) / 1000);
}

/** The stream's name now (the API's `name` is the one it had when the broadcast started). */
export const streamNameOf = (session: Session) => session.streamName ?? session.name;

/**
 * One broadcast in a list: when it started and for how long, what the media node took in,
 * its live and recording state, and its recording's links once there is one.
 */
export function BroadcastRow({ session, showStream }: { session: Session; showStream?: boolean }) {
  return (
    <li className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <Link href={`/broadcasts/${session.id}`} className="font-medium text-zinc-900 hover:text-indigo-600">
            {formatDateTime(session.createdAt)}
          </Link>
          <span className="text-zinc-500 tabular-nums">{formatDuration(broadcastDuration(session))}</span>
          {showStream && (
            <Link href={`/streams/${session.parentId}`} className="truncate text-zinc-600 hover:text-indigo-600">
              {streamNameOf(session)}
            </Link>
          )}
        </p>
        <p className="mt-0.5 text-xs text-zinc-500 tabular-nums">{ingestStats(session)}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <RecordingLinks session={session} />
        <RecordingState session={session} />
        <SessionState session={session} />
      </div>
    </li>
  );
}

/** What the media node took in and transcoded: segments and their media time. */
export function ingestStats(session: Session): string {
  if (!session.sourceSegments) return "No media received";
  return `Source ${session.sourceSegments} segments (${formatDuration(session.sourceSegmentsDuration)}) · transcoded ${session.transcodedSegments} (${formatDuration(session.transcodedSegmentsDuration)})`;
}

const linkClass = "inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-indigo-600 hover:bg-indigo-50 hover:text-indigo-500";

/** Play, download and open the recording's asset: only once it is ready to watch. */
export function RecordingLinks({ session }: { session: Session }) {
  if (session.recordingStatus !== "ready") return null;
  return (
    <span className="flex items-center gap-1">
      {session.recordingPlaybackId && (
        <a href={`/play/${session.recordingPlaybackId}`} target="_blank" rel="noreferrer" className={linkClass}>
          <PlayIcon className="size-3.5" /> Play
        </a>
      )}
      {session.mp4Url && (
        <a href={session.mp4Url} download className={linkClass}>
          <DownloadIcon className="size-3.5" /> MP4
        </a>
      )}
      {session.assetId && (
        <Link href={`/assets/${session.assetId}`} className={linkClass}>
          <FilmIcon className="size-3.5" /> Asset
        </Link>
      )}
    </span>
  );
}

/** From the session's own state: live once its first segments are counted, ended when it ended. */
export function SessionState({ session }: { session: Session }) {
  if (!session.isActive) return <Badge>Ended</Badge>;
  return session.sourceSegments > 0 ? <Badge tone="green">Live</Badge> : <Badge tone="indigo">Starting</Badge>;
}

/** A recorded session records while live; afterwards its recording waits for a reconnect, is processed, then ready. */
export function RecordingState({ session }: { session: Session }) {
  const status = session.recordingStatus;
  if (session.isActive) return session.record ? <Badge tone="amber">Recording</Badge> : null;
  if (!status || status === "none") return null;
  if (status === "ready") {
    // "Recording ready" leads to the recording itself.
    return session.assetId ? (
      <Link href={`/assets/${session.assetId}`} aria-label="Recording ready: open the recording">
        <Badge tone="green" className="hover:bg-emerald-100">
          Recording ready <ChevronRightIcon className="size-3" />
        </Badge>
      </Link>
    ) : (
      <Badge tone="green">Recording ready</Badge>
    );
  }
  if (status === "failed") return <Badge tone="red">Recording failed</Badge>;
  return <Badge tone="amber">Recording processing</Badge>;
}
