import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { DownloadIcon, LayersIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import type { Asset, AssetRendition } from "@/lib/assets/schema";
import { ladderTranscoding } from "@/lib/client/asset-hooks";
import { formatBitrate } from "@/lib/client/format";
import { percent } from "./asset-info";
import { ProgressBar } from "./progress-bar";

/** The ABR ladder of an asset: each rendition as it transcodes, is ready (with its MP4) or failed. */
export function RenditionsCard({ renditions }: { renditions: AssetRendition[] }) {
  const done = renditions.filter((r) => r.phase === "ready").length;
  const moving = renditions.some((r) => r.phase === "transcoding");
  return (
    <Card>
      <CardHeader
        icon={<LayersIcon className="size-4" />}
        title="Renditions"
        description={
          moving
            ? `${done} of ${renditions.length} ready. The video plays meanwhile; each rendition joins the player when it is done.`
            : "The qualities viewers' players switch between."
        }
      />
      <ul aria-label="Renditions" className="divide-y divide-zinc-100 text-sm">
        {renditions.map((r) => (
          <Rendition key={r.name} rendition={r} />
        ))}
      </ul>
    </Card>
  );
}

function Rendition({ rendition: r }: { rendition: AssetRendition }) {
  return (
    <li data-testid="rendition" data-phase={r.phase} className="px-5 py-3">
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-2">
            <span className="font-medium text-zinc-900">{r.name}</span>
            <RenditionPhase rendition={r} />
          </p>
          <p className="mt-0.5 text-xs text-zinc-500 tabular-nums">
            {r.width}×{r.height} · {+r.fps.toFixed(2)} fps · {formatBitrate(r.bitrate)}
          </p>
        </div>
        {r.mp4Url && (
          <a
            href={r.mp4Url}
            download
            className="inline-flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-indigo-600 ring-1 ring-zinc-200 hover:bg-indigo-50 hover:text-indigo-500"
            aria-label={`Download the ${r.name} MP4`}
          >
            <DownloadIcon className="size-3.5" /> MP4
          </a>
        )}
      </div>
      {r.phase === "transcoding" && <ProgressBar value={r.progress} label={`${r.name} transcoding`} className="mt-2" />}
      {r.phase === "failed" && <p className="mt-1 text-xs text-red-700">{r.errorMessage ?? "It could not be transcoded."}</p>}
    </li>
  );
}

function RenditionPhase({ rendition: r }: { rendition: AssetRendition }) {
  switch (r.phase) {
    case "transcoding":
      return (
        <Badge tone="indigo" className="tabular-nums">
          <Spinner className="size-3" /> {percent(r.progress)}%
        </Badge>
      );
    case "ready":
      return <Badge tone="green">ready</Badge>;
    case "failed":
      return <Badge tone="red">failed</Badge>;
  }
}

/** A line for asset lists: how far the ladder of a playable asset has come. */
export function LadderProgress({ asset }: { asset: Asset }) {
  if (!ladderTranscoding(asset)) return null;
  const { progress } = asset.status;
  return (
    <span className="block text-xs whitespace-nowrap text-indigo-700 tabular-nums" data-testid="ladder-progress">
      Renditions{progress !== undefined ? ` ${percent(progress)}%` : "…"}
    </span>
  );
}
