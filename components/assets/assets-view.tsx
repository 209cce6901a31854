"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { ChevronRightIcon, GridIcon, LinkIcon, ListIcon, SearchIcon, UploadIcon } from "@/components/ui/icons";
import { LoadMore } from "@/components/ui/list-page";
import { ListSelect, ListToolbar, SearchBox } from "@/components/ui/list-toolbar";
import { EmptyState, ErrorState, PageHeader, SkeletonCards } from "@/components/ui/states";
import { GridList } from "@/components/ui/grid-list";
import type { Asset } from "@/lib/assets/schema";
import { assetSettled, useAssets } from "@/lib/client/asset-hooks";
import { formatDateTime, timeAgo } from "@/lib/client/format";
import { useListParams } from "@/lib/client/list-params";
import { formatBytes, formatTimecode, resolution, sourceLabel } from "./asset-info";
import { AssetStatusBadge } from "./asset-status";
import { LadderProgress } from "./renditions-card";
import { AssetThumbnail } from "./asset-thumbnail";
import { ImportDialog } from "./import-dialog";
import { UploadDropZone, UploadList } from "./upload-panel";
import { useUploads } from "./upload-queue";

type Layout = "grid" | "list";
const LAYOUT_KEY = "castline.assets.layout";

/** The grid or list choice, remembered in this browser (read after mount, so server and client render alike). */
function useLayout(): [Layout, (layout: Layout) => void] {
  const [layout, setLayout] = useState<Layout>("grid");
  useEffect(() => {
    const saved = localStorage.getItem(LAYOUT_KEY);
    if (saved === "grid" || saved === "list") setLayout(saved);
  }, []);
  return [
    layout,
    (next) => {
      setLayout(next);
      localStorage.setItem(LAYOUT_KEY, next);
    },
  ];
}

const PHASES = [
  ["", "All"],
  ["ready", "Ready"],
  ["processing", "Processing"],
  ["waiting", "Waiting for upload"],
  ["failed", "Failed"],
] as const;
const SOURCES = [
  ["", "All"],
  ["directUpload", "Uploads"],
  ["url", "Imports"],
  ["recording", "Recordings"],
  ["clip", "Clips"],
] as const;
/** Duration choices, each a range of the API's videoSpec.duration filter (seconds). */
const DURATIONS = {
  "": ["Any", undefined],
  short: ["Under 1 min", { lt: 60 }],
  medium: ["1 to 10 min", { gt: 60, lt: 600 }],
  long: ["Over 10 min", { gt: 600 }],
} as const;
const ORDERS = [
  ["", "Newest"],
  ["createdAt-false", "Oldest"],
  ["videoSpec.duration-true", "Longest"],
  ["videoSpec.duration-false", "Shortest"],
] as const;

function AssetFilters({ list }: { list: ReturnType<typeof useListParams> }) {
  const range = JSON.stringify(list.filter("videoSpec.duration"));
  const duration = Object.entries(DURATIONS).find(([, [, value]]) => JSON.stringify(value) === range)?.[0] ?? "";
  return (
    <ListToolbar>
      <SearchBox label="Search videos by name" value={String(list.filter("name") ?? "")} onChange={(name) => list.setFilters({ name })} />
      <ListSelect
        label="Status"
        value={String(list.filter("status.phase") ?? "")}
        options={PHASES}
        onChange={(phase) => list.setFilters({ "status.phase": phase || undefined })}
      />
      <ListSelect
        label="Source"
        value={String(list.filter("source.type") ?? "")}
        options={SOURCES}
        onChange={(type) => list.setFilters({ "source.type": type || undefined })}
      />
      <ListSelect
        label="Length"
        value={duration}
        options={Object.entries(DURATIONS).map(([key, [label]]) => [key, label] as const)}
        onChange={(key) => list.setFilters({ "videoSpec.duration": DURATIONS[key as keyof typeof DURATIONS][1] })}
      />
      <ListSelect label="Sort" value={list.order ?? ""} options={ORDERS} onChange={(next) => list.setOrder(next || undefined)} />
    </ListToolbar>
  );
}

export function AssetsView() {
  const list = useListParams();
  const filtered = list.filters.length > 0;
  const assets = useAssets(list.apiQuery);
  const uploads = useUploads();
  const [importing, setImporting] = useState(false);
  const [layout, setLayout] = useLayout();
  const fileInput = useRef<HTMLInputElement>(null);
  const all = assets.data?.pages.flatMap((p) => p.items) ?? [];
  const empty = assets.isSuccess && all.length === 0 && uploads.length === 0 && !filtered;
  const busy = all.filter((a) => !assetSettled(a)).length;

  return (
    <>
      <PageHeader
        title="Assets"
        description="Your video library: uploads, imports and recordings of your streams, each with a player link, an embed and a download."
        action={
          !empty && (
            <>
              <Button onClick={() => setImporting(true)}>
                <LinkIcon /> Import from URL
              </Button>
              <Button variant="primary" onClick={() => fileInput.current?.click()}>
                <UploadIcon /> Upload
              </Button>
            </>
          )
        }
      />

      <UploadDropZone inputRef={fileInput} hero={empty} onImport={() => setImporting(true)} />
      <UploadList />

      {(all.length > 0 || filtered) && <AssetFilters list={list} />}
      {assets.isPending ? (
        <SkeletonCards />
      ) : assets.isError ? (
        <ErrorState error={assets.error} onRetry={() => assets.refetch()} />
      ) : all.length > 0 ? (
        <>
          <div className="mb-3 flex items-center justify-between gap-3">
            <p className="text-sm text-zinc-500">
              {all.length}
              {assets.hasNextPage ? "+" : ""} video{all.length === 1 ? "" : "s"}
              {busy > 0 && (
                <>
                  <span aria-hidden="true"> · </span>
                  <span className="font-medium text-indigo-700">{busy} in progress</span>
                </>
              )}
            </p>
            <LayoutToggle layout={layout} onChange={setLayout} />
          </div>
          {layout === "grid" ? <AssetGrid assets={all} /> : <AssetList assets={all} />}
          <LoadMore list={assets} className="mt-6" />
        </>
      ) : filtered ? (
        <EmptyState
          icon={<SearchIcon className="size-6" />}
          title="No videos match"
          description="Nothing in your library matches this search and these filters."
          action={<Button onClick={list.clear}>Clear search and filters</Button>}
        />
      ) : null}

      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </>
  );
}

function LayoutToggle({ layout, onChange }: { layout: Layout; onChange: (layout: Layout) => void }) {
  const option = (value: Layout, label: string, icon: ReactNode) => (
    <button
      type="button"
      aria-pressed={layout === value}
      aria-label={label}
      title={label}
      onClick={() => onChange(value)}
      className={cx(
        "flex h-7 w-8 items-center justify-center rounded-md transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600",
        layout === value ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-500 hover:text-zinc-800",
      )}
    >
      {icon}
    </button>
  );
  return (
    <div role="group" aria-label="Layout" className="flex gap-0.5 rounded-lg bg-zinc-100 p-0.5">
      {option("grid", "Grid view", <GridIcon />)}
      {option("list", "List view", <ListIcon />)}
    </div>
  );
}

/** Duration, resolution and size, whichever are known. */
function specs(asset: Asset): string[] {
  const duration = asset.videoSpec?.duration;
  return [
    duration !== undefined ? formatTimecode(duration) : undefined,
    resolution(asset),
    asset.size !== undefined ? formatBytes(asset.size) : undefined,
  ].filter((s): s is string => Boolean(s));
}

function AssetGrid({ assets }: { assets: Asset[] }) {
  return (
    <ul aria-label="Assets" className="grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-4">
      {assets.map((asset) => {
        const failed = asset.status.phase === "failed";
        return (
          <li key={asset.id}>
            <Link
              href={`/assets/${asset.id}`}
              className="group block h-full overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-zinc-200 transition hover:-translate-y-px hover:shadow-md hover:ring-zinc-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              <AssetThumbnail asset={asset} />
              <div className="px-3.5 pt-3 pb-3.5">
                <div className="flex items-start justify-between gap-2">
                  <p className="truncate text-sm font-medium text-zinc-900 group-hover:text-indigo-700" title={asset.name}>
                    {asset.name}
                  </p>
                  <span className="flex shrink-0 flex-col items-end gap-1">
                    <AssetStatusBadge status={asset.status} />
                    <LadderProgress asset={asset} />
                  </span>
                </div>
                {failed && asset.status.errorMessage ? (
                  <p className="mt-1 line-clamp-2 text-xs text-red-700" title={asset.status.errorMessage}>
                    {asset.status.errorMessage}
                  </p>
                ) : (
                  <p className="mt-1 truncate text-xs text-zinc-500 tabular-nums">{specs(asset).join(" · ") || sourceLabel(asset.source)}</p>
                )}
                <p className="mt-0.5 text-xs text-zinc-400" title={formatDateTime(asset.createdAt)}>
                  {timeAgo(asset.createdAt)}
                </p>
              </div>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** name · duration · resolution · size · status · created */
const COLUMNS = "minmax(0,1fr) 4.5rem 6.5rem 5.5rem 9rem 7rem auto";

function AssetList({ assets }: { assets: Asset[] }) {
  return (
    <GridList
      label="Assets"
      columns={COLUMNS}
      headings={
        <>
          <span>Name</span>
          <span className="text-right">Duration</span>
          <span className="text-right">Resolution</span>
          <span className="text-right">Size</span>
          <span>Status</span>
          <span>Created</span>
          <span />
        </>
      }
    >
      {assets.map((asset) => {
        const duration = asset.videoSpec?.duration;
        return (
          <li key={asset.id} className="md:col-span-full md:grid md:grid-cols-subgrid">
            <Link
              href={`/assets/${asset.id}`}
              className="group flex items-center gap-4 px-4 py-3 transition-colors hover:bg-zinc-50 sm:px-5 md:col-span-full md:grid md:grid-cols-subgrid"
            >
              <span className="flex min-w-0 items-center gap-3.5">
                <AssetThumbnail asset={asset} compact className="w-24 shrink-0 rounded-md" />
                <span className="min-w-0">
                  <span className="block truncate text-sm font-medium text-zinc-900 group-hover:text-indigo-700" title={asset.name}>
                    {asset.name}
                  </span>
                  {asset.status.phase === "failed" && asset.status.errorMessage ? (
                    <span className="block truncate text-xs text-red-700" title={asset.status.errorMessage}>
                      {asset.status.errorMessage}
                    </span>
                  ) : (
                    <span className="block truncate text-xs text-zinc-500">
                      <span className="md:hidden">{specs(asset).join(" · ")} · </span>
                      {sourceLabel(asset.source)}
                    </span>
                  )}
                </span>
              </span>
              <span className="hidden text-right text-sm text-zinc-700 tabular-nums md:block">{duration !== undefined ? formatTimecode(duration) : "—"}</span>
              <span className="hidden text-right text-sm text-zinc-700 tabular-nums md:block">{resolution(asset) ?? "—"}</span>
              <span className="hidden text-right text-sm text-zinc-700 tabular-nums md:block">{asset.size !== undefined ? formatBytes(asset.size) : "—"}</span>
              <span className="ml-auto flex shrink-0 flex-col items-end gap-1 md:ml-0 md:items-start">
                <AssetStatusBadge status={asset.status} />
                <LadderProgress asset={asset} />
              </span>
              <span className="hidden text-sm text-zinc-500 md:block" title={formatDateTime(asset.createdAt)}>
                {timeAgo(asset.createdAt)}
              </span>
              <ChevronRightIcon className="hidden size-4 text-zinc-300 group-hover:text-zinc-500 sm:block" />
            </Link>
          </li>
        );
      })}
    </GridList>
  );
}
