"use client";

import type { ReactNode } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeSnippet } from "@/components/ui/code";
import { CopyField } from "@/components/ui/copy";
import { LabeledValue } from "@/components/ui/detail-page";
import { PlayIcon } from "@/components/ui/icons";
import { useOrigin } from "@/lib/client/location";

const usePlayerUrl = (playbackId: string) => `${useOrigin()}/play/${playbackId}`;

/**
 * The dashboard's card for sharing what a playback ID plays (a stream, a video): the rows
 * it is given (links, IDs), then the code that embeds this player in another site.
 */
export function WatchAndShareCard({
  playbackId,
  description,
  action,
  children,
}: {
  playbackId: string;
  description: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const embed = `<iframe src="${usePlayerUrl(playbackId)}" width="640" height="360" style="border:0;aspect-ratio:16/9;width:100%;height:auto" allow="autoplay; fullscreen" allowfullscreen></iframe>`;
  return (
    <Card>
      <CardHeader icon={<PlayIcon className="size-4" />} title="Watch and share" description={description} action={action} />
      <CardBody className="space-y-4">
        {children}
        <CodeSnippet title="Embed code" value={embed} copyLabel="Copy embed code" testId="embed-code" className="break-all whitespace-pre-wrap" />
      </CardBody>
    </Card>
  );
}

/** The link to send viewers: this app's own player page. */
export function PlayerLink({ playbackId }: { playbackId: string }) {
  return (
    <LabeledValue label="Player link">
      <CopyField value={usePlayerUrl(playbackId)} label="player link" testId="player-url" />
    </LabeledValue>
  );
}
