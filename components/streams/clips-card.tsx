"use client";

import Link from "next/link";
import { AssetStatusBadge } from "@/components/assets/asset-status";
import { AssetThumbnail } from "@/components/assets/asset-thumbnail";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FilmIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { useClipLastSeconds, useStreamClips } from "@/lib/client/asset-hooks";
import { formatDateTime } from "@/lib/client/format";
import type { Stream } from "@/lib/streams/schema";

const CLIP_SECONDS = 30;

/** The stream's clips, and while it is live a button that clips its last 30 s (each clip becomes an asset). */
export function ClipsCard({ stream, liveSince }: { stream: Stream; liveSince?: number }) {
  const clips = useStreamClips(stream.id);
  const clip = useClipLastSeconds(stream, CLIP_SECONDS, liveSince);
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
      {clip.error && (
        <CardBody>
          <FormErrors error={clip.error} />
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
          {clips.data.map((c) => (
            <li key={c.id} className="flex items-center gap-3 px-5 py-3">
              <AssetThumbnail asset={c} compact className="w-24 shrink-0 rounded-md" />
              <span className="min-w-0 flex-1">
                <Link href={`/assets/${c.id}`} className="block truncate font-medium text-zinc-900 hover:text-indigo-600">
                  {c.name}
                </Link>
                <span className="text-zinc-500">{formatDateTime(c.createdAt)}</span>
              </span>
              <AssetStatusBadge status={c.status} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
