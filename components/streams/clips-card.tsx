"use client";

import Link from "next/link";
import { AssetStatusBadge } from "@/components/assets/asset-status";
import { AssetThumbnail } from "@/components/assets/asset-thumbnail";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FilmIcon, ResendIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import type { Asset } from "@/lib/assets/schema";
import { useClipLastSeconds, useRetryClip, useStreamClips } from "@/lib/client/asset-hooks";
import { formatDateTime } from "@/lib/client/format";
import type { Stream } from "@/lib/streams/schema";

const CLIP_SECONDS = 30;

/**
 * The stream's clips, and while it is live a button that clips the last 30 s of its live
 * session `liveSessionId` (each clip becomes an asset). A failed clip can be tried again.
 */
export function ClipsCard({ stream, liveSessionId }: { stream: Stream; liveSessionId?: string }) {
  const clips = useStreamClips(stream.id, stream.isActive);
  const clip = useClipLastSeconds(stream, CLIP_SECONDS, liveSessionId);
  const retry = useRetryClip(stream.id);
  return (
    <Card>
      <CardHeader
        icon={<FilmIcon className="size-4" />}
        title="Clips"
        description="Moments of your broadcasts, saved as assets."
        action={
          stream.isActive && (
            <Button size="sm" pending={clip.isPending} onClick={() => clip.mutate()}>
              Clip the last {CLIP_SECONDS} s
            </Button>
          )
        }
      />
      {(clip.error || retry.error) && (
        <CardBody>
          <FormErrors error={clip.error ?? retry.error} />
        </CardBody>
      )}
      {clips.isPending ? (
        <LoadingState compact />
      ) : clips.isError ? (
        <CardBody>
          <FormErrors error={clips.error} />
        </CardBody>
      ) : clips.data.length === 0 ? (
        <CardBody>
          <p className="text-sm text-zinc-500">
            {stream.isActive ? "No clips yet: clip the last 30 s while you are live." : "No clips yet. Go live to clip moments of your broadcast."}
          </p>
        </CardBody>
      ) : (
        <ul aria-label="Clips" className="divide-y divide-zinc-100 text-sm">
          {clips.data
            .filter((c) => !replaced(c, clips.data, retry))
            .map((c) => (
              <ClipRow key={c.id} clip={c} retrying={retry.isPending && retry.variables?.id === c.id} onRetry={() => retry.mutate(c)} />
            ))}
        </ul>
      )}
    </Card>
  );
}

function ClipRow({ clip, retrying, onRetry }: { clip: Asset; retrying: boolean; onRetry: () => void }) {
  const failed = clip.status.phase === "failed";
  return (
    <li data-testid="clip-row" className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3">
      <AssetThumbnail asset={clip} compact className="w-24 shrink-0 rounded-md" />
      {/* At least 10rem for the name and the reason: on a phone the status and Retry go below. */}
      <span className="min-w-0 flex-1 basis-40">
        <Link href={`/assets/${clip.id}`} className="block truncate font-medium text-zinc-900 hover:text-indigo-600">
          {clip.name}
        </Link>
        <span className="text-zinc-500">{formatDateTime(clip.createdAt)}</span>
        {failed && clip.status.errorMessage && <span className="block text-red-700">{capitalise(clip.status.errorMessage)}</span>}
      </span>
      <span className="ml-auto flex shrink-0 items-center gap-2">
        <AssetStatusBadge status={clip.status} />
        {failed && (
          <Button size="sm" pending={retrying} onClick={onRetry} aria-label={`Retry ${clip.name}`}>
            <ResendIcon /> Retry
          </Button>
        )}
      </span>
    </li>
  );
}

/** The API writes its messages in lower case; on their own they read better capitalised. */
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A retried clip once its replacement is listed: the retry makes the new clip, then deletes the
 * old one, and a poll between the two would show both. Until the replacement is listed the old
 * row stays, its Retry pending; if the retry fails it shows again beside the error.
 */
function replaced(c: Asset, all: Asset[], retry: ReturnType<typeof useRetryClip>): boolean {
  if (retry.isError || retry.isIdle || retry.variables?.id !== c.id) return false;
  return all.some((other) => other.id !== c.id && other.name === c.name && other.createdAt > c.createdAt);
}
