"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { Segmented } from "@/components/ui/segmented";
import { ChartIcon, FilmIcon, VideoIcon } from "@/components/ui/icons";
import { ErrorState, FormErrors, LoadingState, PageHeader } from "@/components/ui/states";
import type { ViewershipMetric } from "@/lib/analytics/schema";
import {
  RANGES,
  useContentNames,
  useUsage,
  useViewershipBreakdown,
  useViewershipSeries,
  useViewershipTotals,
  useViewRange,
  useViewsNow,
  windowOf,
  type Content,
  type ViewWindow,
} from "@/lib/client/analytics-hooks";
import { formatCount, formatMinutes } from "./format";
import { Breakdowns, NoViews, RangePicker, Tile, TotalTiles, TrendCharts } from "./viewership-parts";

/** The account's whole audience: `of` nothing in particular. */
const ACCOUNT = {};

/**
 * Viewership across the account over a range: totals, the streams and videos watched most,
 * quality of experience over time, who watched, and the minutes used.
 */
export function ViewershipView() {
  const [range, setRange] = useViewRange();
  const w = windowOf(range);
  const totals = useViewershipTotals(ACCOUNT, w);
  return (
    <>
      <PageHeader title="Viewership" description="Who watched your streams and videos, for how long, and how well it played, as viewers’ players report it." />
      <div className="mb-6">
        <RangePicker range={range} onChange={setRange} />
      </div>
      {totals.isPending ? (
        <LoadingState />
      ) : totals.isError ? (
        <ErrorState error={totals.error} onRetry={() => totals.refetch()} />
      ) : (
        <div className="space-y-6">
          {totals.data.viewCount === 0 ? (
            <Card>
              <CardBody>
                <NoViews of={ACCOUNT} window={w} />
              </CardBody>
            </Card>
          ) : (
            <>
              <TotalTiles totals={totals.data} wide={<PlayingNow />} />
              <div className="grid gap-6 lg:grid-cols-3">
                <div className="min-w-0 space-y-6 lg:col-span-2">
                  <TopContent window={w} />
                  <TrendsCard window={w} />
                </div>
                <div className="min-w-0 space-y-6">
                  <Card>
                    <CardHeader title="Audience" description={`Views in ${RANGES[w.range].words}.`} />
                    <CardBody>
                      <Breakdowns of={ACCOUNT} window={w} />
                    </CardBody>
                  </Card>
                  <UsageCard window={w} />
                </div>
              </div>
            </>
          )}
          {totals.data.viewCount === 0 && <UsageCard window={w} />}
        </div>
      )}
    </>
  );
}

/** Views playing now, from the players' beacons of the last 30 s (not the range's). */
function PlayingNow() {
  const now = useViewsNow();
  return (
    <Tile label="Playing now" testId="views-now" title="Views whose player reported within the last 30 seconds">
      {now.data !== undefined ? formatCount(now.data) : undefined}
    </Tile>
  );
}

function TrendsCard({ window: w }: { window: ViewWindow }) {
  const series = useViewershipSeries(ACCOUNT, w);
  return (
    <Card>
      <CardHeader title="Over time" description={`Views and watch time, then quality of experience, per ${RANGES[w.range].timeStep}.`} />
      <CardBody>
        {series.isPending ? <LoadingState compact /> : series.isError ? <FormErrors error={series.error} /> : <TrendCharts window={w} rows={series.data} />}
      </CardBody>
    </Card>
  );
}

/** How many of the most watched the table lists. */
const TOP = 10;
const ORDERS = { views: "Views", minutes: "Watch time" } as const;
type Order = keyof typeof ORDERS;

/** The streams and videos watched most over the range, by views or by watch time, each linking to its page. */
function TopContent({ window: w }: { window: ViewWindow }) {
  const [order, setOrder] = useState<Order>("views");
  const rows = useViewershipBreakdown(ACCOUNT, w, "playbackId");
  const watched = (rows.data ?? []).filter((r) => r.viewCount > 0);
  const top = [...watched].sort((a, b) => (order === "views" ? b.viewCount - a.viewCount : b.playtimeMins - a.playtimeMins)).slice(0, TOP);
  const names = useContentNames(top.map((r) => r.playbackId ?? ""));
  return (
    <Card>
      <CardHeader
        title="Top content"
        description={`Watched most in ${RANGES[w.range].words}.`}
        action={
          <Segmented
            label="Order"
            options={Object.fromEntries(Object.entries(ORDERS).map(([key, text]) => [key, { text }])) as Record<Order, { text: string }>}
            value={order}
            onChange={setOrder}
          />
        }
      />
      {rows.isPending ? (
        <LoadingState compact />
      ) : rows.isError ? (
        <CardBody>
          <FormErrors error={rows.error} />
        </CardBody>
      ) : (
        <table className="w-full table-fixed text-sm" data-testid="top-content">
          <thead className="text-left text-xs text-zinc-500">
            <tr className="border-b border-zinc-100">
              <th scope="col" className="py-2 pr-2 pl-5 font-medium">
                Stream or video
              </th>
              <th scope="col" className="w-16 px-2 py-2 text-right font-medium sm:w-24">
                Views
              </th>
              <th scope="col" className="w-20 py-2 pr-5 pl-2 text-right font-medium sm:w-28">
                <span className="sm:hidden">Min</span>
                <span className="hidden sm:inline">Watch time</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {top.map((row) => (
              <ContentRow key={row.playbackId} row={row} content={names.data?.get(row.playbackId ?? "")} resolving={names.isPending} />
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function ContentRow({ row, content, resolving }: { row: ViewershipMetric; content: Content | undefined; resolving: boolean }) {
  const Icon = content?.kind === "asset" ? FilmIcon : VideoIcon;
  return (
    <tr>
      <td className="py-2.5 pr-2 pl-5">
        {content ? (
          <Link
            href={`/${content.kind === "stream" ? "streams" : "assets"}/${content.id}`}
            className="flex min-w-0 items-center gap-2 font-medium text-zinc-900 hover:text-indigo-600"
          >
            <Icon className="size-4 shrink-0 text-zinc-400" />
            <span className="truncate">{content.name}</span>
          </Link>
        ) : (
          <span className="flex min-w-0 items-center gap-2 text-zinc-500">
            <span className="truncate font-mono text-xs">{row.playbackId}</span>
            {!resolving && <Badge>deleted</Badge>}
          </span>
        )}
      </td>
      <td className="px-2 py-2.5 text-right text-zinc-900 tabular-nums">{formatCount(row.viewCount)}</td>
      <td className="py-2.5 pr-5 pl-2 text-right text-zinc-900 tabular-nums">
        {formatMinutes(row.playtimeMins)}
        <span className="hidden text-xs text-zinc-500 sm:inline"> min</span>
      </td>
    </tr>
  );
}

/** Minutes delivered to viewers and transcoded over the range, and stored now. */
function UsageCard({ window: w }: { window: ViewWindow }) {
  const usage = useUsage(w);
  const u = usage.data;
  const rows = [
    { id: "delivered", label: "Delivered", note: "watched by your viewers", minutes: u?.DeliveryUsageMins },
    { id: "transcoded", label: "Transcoded", note: "uploads and broadcasts processed", minutes: u?.TotalUsageMins },
    { id: "stored", label: "Stored", note: "video in your assets now", minutes: u?.StorageUsageMins },
  ];
  return (
    <Card>
      <CardHeader icon={<ChartIcon className="size-4" />} title="Usage" description={`Minutes of video in ${RANGES[w.range].words}.`} />
      <CardBody>
        {usage.isError ? (
          <FormErrors error={usage.error} />
        ) : (
          <dl className="divide-y divide-zinc-100">
            {rows.map((row) => (
              <div key={row.id} className="flex items-baseline justify-between gap-3 py-2.5 first:pt-0 last:pb-0">
                <dt className="min-w-0">
                  <span className="text-sm text-zinc-800">{row.label}</span>
                  <span className="block text-xs text-zinc-500">{row.note}</span>
                </dt>
                <dd className="shrink-0 tabular-nums" data-testid={`usage-${row.id}`}>
                  <span className="text-base font-semibold text-zinc-900">{row.minutes !== undefined ? formatMinutes(row.minutes) : "—"}</span>
                  <span className="ml-1 text-xs text-zinc-500">min</span>
                </dd>
              </div>
            ))}
          </dl>
        )}
      </CardBody>
    </Card>
  );
}
