"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { PlaybackPolicyCard } from "@/components/access-control/playback-policy-card";
import { ViewershipCard } from "@/components/analytics/viewership-card";
import { Player } from "@/components/player/player";
import { PlayerLink, WatchAndShareCard } from "@/components/player/watch-and-share";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy";
import { DangerZone, DetailColumns, DetailHeader, DetailPage, DetailsCard, LabeledValue } from "@/components/ui/detail-page";
import { AlertIcon, ClockIcon, DownloadIcon, ExternalLinkIcon, LayersIcon } from "@/components/ui/icons";
import { RenameButton } from "@/components/ui/rename-dialog";
import { Spinner } from "@/components/ui/spinner";
import type { Asset } from "@/lib/assets/schema";
import { policyOf } from "@/lib/client/access-hooks";
import { useAsset, useDeleteAsset, useUpdateAsset } from "@/lib/client/asset-hooks";
import { formatBitrate, formatDateTime, formatDuration, timeAgo } from "@/lib/client/format";
import { formatBytes, hostOf, percent, resolution, sourceLabel } from "./asset-info";
import { AssetStatusBadge } from "./asset-status";
import { ExportCard, ExportsCard, IpfsCard } from "./export-card";
import { ProgressBar } from "./progress-bar";
import { CaptionsCard } from "./captions-card";
import { ClipCard } from "./clip-card";
import { RenditionsCard } from "./renditions-card";
import { UploadRecoveryCard } from "./upload-recovery";

/** A video whose file is still to come from someone's browser or backend. */
const awaitingUpload = (asset: Asset) => asset.source.type === "directUpload" && (asset.status.phase === "waiting" || asset.status.phase === "uploading");

export function AssetDetail({ id }: { id: string }) {
  return (
    <DetailPage query={useAsset(id)} noun="video" list={{ href: "/assets", label: "Assets" }}>
      {(asset) => <AssetPage asset={asset} />}
    </DetailPage>
  );
}

function RenameAsset({ asset }: { asset: Asset }) {
  return <RenameButton noun="video" name={asset.name} update={useUpdateAsset(asset.id)} />;
}

function AssetPage({ asset }: { asset: Asset }) {
  const remove = useDeleteAsset();
  const ready = asset.status.phase === "ready";
  return (
    <>
      <DetailHeader
        title={asset.name}
        status={<AssetStatusBadge status={asset.status} testId="asset-status" />}
        description={`${sourceLabel(asset.source)} · ${formatDateTime(asset.createdAt)}`}
        actions={
          <>
            <RenameAsset asset={asset} />
            {ready && asset.downloadUrl && (
              <a href={asset.downloadUrl} download className={buttonClass("secondary")}>
                <DownloadIcon /> Download
              </a>
            )}
            {ready && (
              <a href={`/play/${asset.playbackId}`} target="_blank" rel="noreferrer" className={buttonClass("primary")}>
                Open player <ExternalLinkIcon />
              </a>
            )}
          </>
        }
      />

      {asset.status.phase === "failed" && (
        <div role="alert" className="mb-6 flex items-start gap-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset">
          <AlertIcon className="mt-0.5 size-4 shrink-0 text-red-600" />
          <p>
            <strong className="font-semibold">This video could not be processed.</strong>{" "}
            <span data-testid="asset-error">{asset.status.errorMessage ?? "No reason was given."}</span>
          </p>
        </div>
      )}

      <DetailColumns
        main={
          <>
            <PlayerCard asset={asset} />
            {awaitingUpload(asset) && <UploadRecoveryCard asset={asset} />}
            {asset.renditions && asset.renditions.length > 0 && <RenditionsCard renditions={asset.renditions} />}
            {ready && <ShareCard asset={asset} />}
            {/* Views need a video to play; a failed one never had any. */}
            {asset.status.phase !== "failed" && <ViewershipCard of={{ assetId: asset.id }} noun="video" />}
            <AccessCard asset={asset} />
            {ready && <ClipCard asset={asset} />}
            {ready && <CaptionsCard assetId={asset.id} />}
            {asset.status.phase !== "failed" && <ExportCard asset={asset} />}
            <IpfsCard asset={asset} />
            <ExportsCard assetId={asset.id} />
          </>
        }
        side={
          <>
            <AssetDetails asset={asset} />
            {asset.videoSpec && <VideoSpecCard spec={asset.videoSpec} />}
            {asset.hash && asset.hash.length > 0 && <HashesCard hashes={asset.hash} />}
            <DangerZone remove={remove} description="It stops playing everywhere and its files are removed. Exports already made stay where they went.">
              <strong className="font-semibold text-zinc-900">{asset.name}</strong> will be taken down at once: its player, embeds, links and downloads stop
              working for everyone, its processing stops, and its files (every rendition, caption and thumbnail) are removed. Copies exported to IPFS or another
              URL are not touched. This cannot be undone.
            </DangerZone>
          </>
        }
      />
    </>
  );
}

/** The viewers' player once the video is ready; until then, where it stands. */
function PlayerCard({ asset }: { asset: Asset }) {
  const { phase, progress } = asset.status;
  const moving = phase === "uploading" || phase === "processing";
  return (
    <Card className="overflow-hidden">
      <div className="relative aspect-video bg-zinc-950 scheme-light" data-testid="asset-player">
        {phase === "ready" ? (
          <Player playbackId={asset.playbackId} autoPlay={false} muted={false} credential={{ session: true }} />
        ) : (
          <div className="absolute inset-0 flex flex-col items-center justify-center bg-[radial-gradient(ellipse_at_center,var(--color-zinc-800),var(--color-zinc-950)_70%)] px-6 text-center">
            <div className="flex size-12 items-center justify-center rounded-full bg-white/5 text-zinc-300 ring-1 ring-white/10">
              {phase === "failed" ? <AlertIcon className="size-6 text-red-400" /> : moving ? <Spinner className="size-6" /> : <ClockIcon className="size-6" />}
            </div>
            <p className="mt-3 text-base font-semibold text-white">
              {phase === "failed"
                ? "Processing failed"
                : moving
                  ? `${phase === "uploading" ? "Uploading" : "Processing"}${progress !== undefined ? ` · ${percent(progress)}%` : "…"}`
                  : "Waiting for the video"}
            </p>
            <p className="mt-1 max-w-sm text-sm text-zinc-400">
              {phase === "failed"
                ? "There is nothing to play."
                : moving
                  ? "It plays here as soon as it is ready. You can leave this page meanwhile."
                  : asset.source.type === "url"
                    ? `Castline is about to download it from ${hostOf(asset.source.url)}.`
                    : "The upload has not finished yet."}
            </p>
            {moving && <ProgressBar decorative value={progress} className="mt-5 max-w-xs bg-white/10" />}
          </div>
        )}
      </div>
    </Card>
  );
}

function AccessCard({ asset }: { asset: Asset }) {
  const update = useUpdateAsset(asset.id);
  return (
    <PlaybackPolicyCard
      policy={policyOf(asset)}
      noun="video"
      save={{ ...update, mutate: (playbackPolicy, options) => update.mutate({ playbackPolicy }, options) }}
    />
  );
}

function ShareCard({ asset }: { asset: Asset }) {
  return (
    <WatchAndShareCard
      playbackId={asset.playbackId}
      description="Send viewers the player link, embed the player in your site, or play the stream in a player of your own."
    >
      <PlayerLink playbackId={asset.playbackId} />
      {asset.playbackUrl && (
        <LabeledValue label="Playback URL (HLS)" hint="For your own player: hls.js, Video.js, Safari and mobile apps play it as is.">
          <CopyField value={asset.playbackUrl} label="playback URL" testId="playback-url" />
        </LabeledValue>
      )}
      {asset.downloadUrl && (
        <LabeledValue label="Download URL" hint="The MP4 file itself.">
          <CopyField value={asset.downloadUrl} label="download URL" testId="download-url" />
        </LabeledValue>
      )}
    </WatchAndShareCard>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="truncate text-sm text-zinc-800 tabular-nums">{children}</dd>
    </div>
  );
}

function AssetDetails({ asset }: { asset: Asset }) {
  const duration = asset.videoSpec?.duration;
  return (
    <DetailsCard idLabel="Asset ID">
      <LabeledValue label="Playback ID">
        <CopyField value={asset.playbackId} label="playback ID" testId="playback-id" />
      </LabeledValue>
      <dl className="grid grid-cols-2 gap-3">
        <Stat label="Size">{asset.size !== undefined ? formatBytes(asset.size) : "—"}</Stat>
        <Stat label="Duration">{duration !== undefined ? formatDuration(duration) : "—"}</Stat>
        <Stat label="Resolution">{resolution(asset) ?? "—"}</Stat>
        <Stat label="Updated">{timeAgo(asset.status.updatedAt)}</Stat>
      </dl>
      <div>
        <p className="text-xs text-zinc-500">Source</p>
        <Source source={asset.source} />
      </div>
    </DetailsCard>
  );
}

function Source({ source }: { source: Asset["source"] }) {
  switch (source.type) {
    case "url":
      return (
        <a
          href={source.url}
          target="_blank"
          rel="noreferrer"
          className="flex min-w-0 items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
          title={source.url}
        >
          <span className="truncate font-mono text-xs">{source.url}</span>
          <ExternalLinkIcon className="size-3.5 shrink-0" />
        </a>
      );
    case "recording":
      // Back to the broadcast it recorded, and the stream it was on.
      return (
        <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-zinc-800">
          <span>Recording of a broadcast:</span>
          <Link href={`/broadcasts/${source.sessionId}`} className="font-medium text-indigo-600 hover:text-indigo-500">
            View broadcast
          </Link>
          {source.streamId && (
            <Link href={`/streams/${source.streamId}`} className="font-medium text-indigo-600 hover:text-indigo-500">
              View stream
            </Link>
          )}
        </p>
      );
    case "clip":
      return (
        <p className="text-sm text-zinc-800">
          Clip of {source.sessionId ? "live session" : "asset"}{" "}
          <code className="font-mono text-xs break-all text-zinc-600">{source.sessionId ?? source.assetId}</code>
        </p>
      );
    default:
      return <p className="text-sm text-zinc-800">Uploaded from a browser or the API</p>;
  }
}

function VideoSpecCard({ spec }: { spec: NonNullable<Asset["videoSpec"]> }) {
  return (
    <Card>
      <CardHeader icon={<LayersIcon className="size-4" />} title="Video spec" />
      <CardBody className="space-y-4">
        <dl className="grid grid-cols-3 gap-3">
          <Stat label="Container">{spec.format}</Stat>
          <Stat label="Duration">{formatDuration(spec.duration)}</Stat>
          <Stat label="Bitrate">{spec.bitrate ? formatBitrate(spec.bitrate) : "—"}</Stat>
        </dl>
      </CardBody>
      <ul className="divide-y divide-zinc-100 border-t border-zinc-100 text-sm">
        {spec.tracks.map((track, i) => (
          <li key={i} className="px-5 py-3">
            <p className="flex items-center gap-2">
              <span className="font-medium text-zinc-900 capitalize">{track.type}</span>
              <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">{track.codec}</span>
            </p>
            <p className="mt-1 text-xs text-zinc-500 tabular-nums">
              {(track.type === "video"
                ? [
                    `${track.width}×${track.height}`,
                    track.fps && `${+track.fps.toFixed(2)} fps`,
                    track.bitrate && formatBitrate(track.bitrate),
                    track.pixelFormat,
                  ]
                : [
                    track.channels && `${track.channels} channel${track.channels === 1 ? "" : "s"}`,
                    track.sampleRate && `${+(track.sampleRate / 1000).toFixed(1)} kHz`,
                    track.bitrate && formatBitrate(track.bitrate),
                  ]
              )
                .filter(Boolean)
                .join(" · ")}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function HashesCard({ hashes }: { hashes: NonNullable<Asset["hash"]> }) {
  return (
    <Card>
      <CardHeader title="Hashes" description="Of the source file, to check a download is intact." />
      <CardBody className="space-y-3">
        {hashes.map((h) => (
          <LabeledValue key={h.algorithm} label={h.algorithm.toUpperCase()}>
            <CopyField value={h.hash} label={`${h.algorithm} hash`} />
          </LabeledValue>
        ))}
      </CardBody>
    </Card>
  );
}
