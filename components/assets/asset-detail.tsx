"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { Player } from "@/components/player/player";
import { Button, buttonClass, LinkButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm";
import { CopyButton, CopyField } from "@/components/ui/copy";
import { AlertIcon, ArrowLeftIcon, ClockIcon, DownloadIcon, ExternalLinkIcon, LayersIcon, PlayIcon, TrashIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { ErrorState, LoadingState } from "@/components/ui/states";
import type { Asset } from "@/lib/assets/schema";
import { useAsset, useDeleteAsset } from "@/lib/client/asset-hooks";
import { formatBitrate, formatDateTime, formatDuration, timeAgo } from "@/lib/client/format";
import { useOrigin } from "@/lib/client/location";
import { formatBytes, hostOf, percent, resolution, sourceLabel } from "./asset-info";
import { AssetStatusBadge } from "./asset-status";
import { ExportCard, ExportsCard, IpfsCard } from "./export-card";
import { ProgressBar } from "./progress-bar";

export function AssetDetail({ id }: { id: string }) {
  const asset = useAsset(id);

  if (asset.isPending) return <LoadingState label="Loading video…" />;
  if (asset.isError) {
    return (
      <>
        <BackLink />
        <ErrorState
          error={asset.error}
          onRetry={() => asset.refetch()}
          notFound={{
            title: "Video not found",
            description: "It may have been deleted, or the link is wrong.",
            action: <LinkButton href="/assets">Back to assets</LinkButton>,
          }}
        />
      </>
    );
  }
  return <AssetPage asset={asset.data} />;
}

function BackLink() {
  return (
    <Link href="/assets" className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-zinc-500 hover:text-zinc-800">
      <ArrowLeftIcon /> Assets
    </Link>
  );
}

function AssetPage({ asset }: { asset: Asset }) {
  const ready = asset.status.phase === "ready";
  return (
    <>
      <BackLink />
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="truncate text-2xl font-semibold tracking-tight text-zinc-900">{asset.name}</h1>
            <AssetStatusBadge status={asset.status} testId="asset-status" />
          </div>
          <p className="mt-1 text-sm text-zinc-500">
            {sourceLabel(asset.source)} · {formatDateTime(asset.createdAt)}
          </p>
        </div>
        {ready && (
          <div className="flex shrink-0 items-center gap-2">
            {asset.downloadUrl && (
              <a href={asset.downloadUrl} download className={buttonClass("secondary")}>
                <DownloadIcon /> Download
              </a>
            )}
            <a href={`/play/${asset.playbackId}`} target="_blank" rel="noreferrer" className={buttonClass("primary")}>
              Open player <ExternalLinkIcon />
            </a>
          </div>
        )}
      </div>

      {asset.status.phase === "failed" && (
        <div role="alert" className="mb-6 flex items-start gap-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset">
          <AlertIcon className="mt-0.5 size-4 shrink-0 text-red-600" />
          <p>
            <strong className="font-semibold">This video could not be processed.</strong>{" "}
            <span data-testid="asset-error">{asset.status.errorMessage ?? "No reason was given."}</span>
          </p>
        </div>
      )}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <PlayerCard asset={asset} />
          {ready && <ShareCard asset={asset} />}
          {asset.status.phase !== "failed" && <ExportCard asset={asset} />}
          <IpfsCard asset={asset} />
          <ExportsCard assetId={asset.id} />
        </div>
        <div className="min-w-0 space-y-6">
          <DetailsCard asset={asset} />
          {asset.videoSpec && <VideoSpecCard spec={asset.videoSpec} />}
          {asset.hash && asset.hash.length > 0 && <HashesCard hashes={asset.hash} />}
          <DangerCard asset={asset} />
        </div>
      </div>
    </>
  );
}

/** The viewers' player once the video is ready; until then, where it stands. */
function PlayerCard({ asset }: { asset: Asset }) {
  const { phase, progress } = asset.status;
  const moving = phase === "uploading" || phase === "processing";
  return (
    <Card className="overflow-hidden">
      <div className="relative aspect-video bg-zinc-950" data-testid="asset-player">
        {phase === "ready" ? (
          <Player playbackId={asset.playbackId} autoPlay={false} muted={false} />
        ) : (
          <div className="absolute inset-0 flex flex-col items-center justify-center bg-[radial-gradient(ellipse_at_center,var(--color-zinc-800),var(--color-zinc-950)_70%)] px-6 text-center">
            <div className="flex size-12 items-center justify-center rounded-full bg-white/5 text-zinc-300 ring-1 ring-white/10">
              {phase === "failed" ? (
                <AlertIcon className="size-6 text-red-400" />
              ) : moving ? (
                <Spinner className="size-6" />
              ) : (
                <ClockIcon className="size-6" />
              )}
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

function Row({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-zinc-800">{label}</p>
      {children}
      {hint && <p className="mt-1.5 text-xs text-zinc-500">{hint}</p>}
    </div>
  );
}

function ShareCard({ asset }: { asset: Asset }) {
  const origin = useOrigin();
  const playerUrl = `${origin}/play/${asset.playbackId}`;
  const embed = `<iframe src="${playerUrl}" width="640" height="360" style="border:0;aspect-ratio:16/9;width:100%;height:auto" allow="autoplay; fullscreen" allowfullscreen></iframe>`;
  return (
    <Card>
      <CardHeader
        icon={<PlayIcon className="size-4" />}
        title="Watch and share"
        description="Send viewers the player link, embed the player in your site, or play the stream in a player of your own."
      />
      <CardBody className="space-y-4">
        <Row label="Player link">
          <CopyField value={playerUrl} label="player link" testId="player-url" />
        </Row>
        {asset.playbackUrl && (
          <Row label="Playback URL (HLS)" hint="For your own player: hls.js, Video.js, Safari and mobile apps play it as is.">
            <CopyField value={asset.playbackUrl} label="playback URL" testId="playback-url" />
          </Row>
        )}
        {asset.downloadUrl && (
          <Row label="Download URL" hint="The MP4 file itself.">
            <CopyField value={asset.downloadUrl} label="download URL" testId="download-url" />
          </Row>
        )}
        <div>
          <div className="mb-1.5 flex items-center justify-between">
            <p className="text-sm font-medium text-zinc-800">Embed code</p>
            <CopyButton value={embed} label="Copy embed code" variant="ghost" />
          </div>
          <pre
            data-testid="embed-code"
            className="overflow-x-auto rounded-lg bg-zinc-950 px-4 py-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-100"
          >
            {embed}
          </pre>
        </div>
      </CardBody>
    </Card>
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

function DetailsCard({ asset }: { asset: Asset }) {
  const duration = asset.videoSpec?.duration;
  return (
    <Card>
      <CardHeader title="Details" />
      <CardBody className="space-y-4">
        <Row label="Asset ID">
          <CopyField value={asset.id} label="asset ID" />
        </Row>
        <Row label="Playback ID">
          <CopyField value={asset.playbackId} label="playback ID" testId="playback-id" />
        </Row>
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
      </CardBody>
    </Card>
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
      return (
        <p className="text-sm text-zinc-800">
          Recording of live session <code className="font-mono text-xs break-all text-zinc-600">{source.sessionId}</code>
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
          <Row key={h.algorithm} label={h.algorithm.toUpperCase()}>
            <CopyField value={h.hash} label={`${h.algorithm} hash`} />
          </Row>
        ))}
      </CardBody>
    </Card>
  );
}

function DangerCard({ asset }: { asset: Asset }) {
  const router = useRouter();
  const remove = useDeleteAsset();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card className="ring-red-200">
      <CardBody className="space-y-3">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">Delete video</h2>
          <p className="mt-0.5 text-sm text-zinc-500">It leaves your library and the API. Exports already made stay where they went.</p>
        </div>
        <Button variant="dangerGhost" className="-ml-2" onClick={() => setConfirming(true)}>
          <TrashIcon /> Delete video
        </Button>
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          remove.reset();
          setConfirming(false);
        }}
        title="Delete this video?"
        confirmLabel="Delete video"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(asset.id, { onSuccess: () => router.push("/assets") })}
      >
        <strong className="font-semibold text-zinc-900">{asset.name}</strong> will be deleted from your library. This cannot be
        undone.
      </ConfirmDialog>
    </Card>
  );
}
