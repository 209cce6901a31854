"use client";

import type { ReactNode } from "react";
import { cx } from "@/components/ui/cx";
import { Segmented } from "@/components/ui/segmented";
import { ChartIcon } from "@/components/ui/icons";
import { EmptyState, FormErrors, LoadingState } from "@/components/ui/states";
import type { Dimension, ViewershipMetric } from "@/lib/analytics/schema";
import { RANGES, useLifetimeViews, useViewershipBreakdown, type RangeKey, type ViewsOf, type ViewWindow } from "@/lib/client/analytics-hooks";
import { formatCount, formatMinutes, formatPercent, unitAfter } from "./format";
import { StepChart, StepTimeAxis, type StepChartSpec } from "./step-chart";

const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

/** The range buttons: a step an hour up to a week, a day beyond. */
export function RangePicker({ range, onChange }: { range: RangeKey; onChange: (range: RangeKey) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Segmented
        label="Range"
        options={
          Object.fromEntries(Object.entries(RANGES).map(([key, r]) => [key, { text: r.label, name: r.name }])) as Record<
            RangeKey,
            { text: string; name: string }
          >
        }
        value={range}
        onChange={onChange}
      />
      <span className="text-xs text-zinc-500">per {RANGES[range].timeStep}</span>
    </div>
  );
}

/** A figure of the range: its label, its value in large type, its unit in small. */
export function Tile({ label, unit, testId, title, children }: { label: string; unit?: string; testId: string; title?: string; children?: ReactNode }) {
  const known = children !== undefined && children !== null;
  return (
    <div className="min-w-0 rounded-lg bg-zinc-50 px-3 py-2.5 ring-1 ring-zinc-200 ring-inset" title={title}>
      <dt className="truncate text-xs text-zinc-500">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 truncate tabular-nums">
        {known ? (
          <>
            <span className="text-lg font-semibold text-zinc-900">{children}</span>
            {unit && <span className="ml-1 text-xs text-zinc-500">{unit}</span>}
          </>
        ) : (
          <span className="text-lg font-semibold text-zinc-400">—</span>
        )}
      </dd>
    </div>
  );
}

/**
 * Views, watch time and quality of experience over the range, as tiles: six in a card (three a
 * row), and with `wide`, the page's eight (four a row), views playing now first.
 */
export function TotalTiles({ totals, wide }: { totals: ViewershipMetric; wide?: ReactNode }) {
  const { viewCount, playtimeMins, ttffP50Ms, ttffP95Ms, rebufferRatio, errorRate, exitsBeforeStart } = totals;
  return (
    <dl className={cx("grid grid-cols-2 gap-3", wide ? "sm:grid-cols-4" : "sm:grid-cols-3")}>
      {wide}
      <Tile label="Views" testId="views-total">
        {formatCount(viewCount)}
      </Tile>
      <Tile label="Watch time" unit="min" testId="views-minutes">
        {formatMinutes(playtimeMins)}
      </Tile>
      <Tile label="Time to first frame" unit="ms p50" testId="views-ttff-p50" title="Half the views started faster than this">
        {ttffP50Ms !== undefined ? whole.format(ttffP50Ms) : undefined}
      </Tile>
      <Tile label="Slowest starts" unit="ms p95" testId="views-ttff-p95" title="19 views in 20 started faster than this">
        {ttffP95Ms !== undefined ? whole.format(ttffP95Ms) : undefined}
      </Tile>
      <Tile label="Rebuffering" testId="views-rebuffer" title="Time stalled over time watched and stalled">
        {rebufferRatio !== undefined ? formatPercent(rebufferRatio) : undefined}
      </Tile>
      <Tile label="Views with an error" testId="views-errors">
        {errorRate !== undefined ? formatPercent(errorRate) : undefined}
      </Tile>
      {wide && (
        <Tile
          label="Left before starting"
          unit={exitsBeforeStart === 1 ? "view" : "views"}
          testId="views-exits"
          title="Views that ended before their first frame"
        >
          {exitsBeforeStart !== undefined ? formatCount(exitsBeforeStart) : undefined}
        </Tile>
      )}
    </dl>
  );
}

/** The range's steps with each one's row of the API's answer (none: no views then). */
function byStep(w: ViewWindow, rows: ViewershipMetric[]) {
  const at = new Map(rows.map((r) => [r.timestamp, r]));
  return w.steps.map((t) => at.get(t));
}

/** Views, watch time, TTFF, rebuffering and errors in each step of the range, over one time axis. */
export function TrendCharts({ window: w, rows, only }: { window: ViewWindow; rows: ViewershipMetric[]; only?: "counts" | "quality" }) {
  const steps = byStep(w, rows);
  const watched = steps.map((r) => (r && r.viewCount > 0 ? r : undefined));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const views = steps.map((r) => r?.viewCount ?? 0);
  const minutes = steps.map((r) => r?.playtimeMins ?? 0);
  const p50 = watched.map((r) => r?.ttffP50Ms);
  const p95 = watched.map((r) => r?.ttffP95Ms);
  const rebuffer = watched.map((r) => (r?.rebufferRatio !== undefined ? r.rebufferRatio * 100 : undefined));
  const errors = watched.map((r) => (r?.errorRate !== undefined ? r.errorRate * 100 : undefined));
  const span = (values: (number | undefined)[], format: (n: number) => string, unit: string) => {
    const known = values.filter((v): v is number => v !== undefined);
    // Steps with views but none of this (no view reached its first frame): nothing to say.
    if (!known.length) return "—";
    const [low, high] = [format(Math.min(...known)), format(Math.max(...known))];
    return `${low === high ? low : `${low}–${high}`}${unitAfter(unit)}`;
  };
  const points = (n: number) => formatPercent(n / 100).replace("%", "");
  const step = RANGES[w.range].timeStep;
  const charts: StepChartSpec[] = [
    ...(only === "quality"
      ? []
      : [
          {
            id: "views",
            label: "Views",
            unit: "views",
            kind: "bars",
            series: [{ values: views }],
            format: formatCount,
            summary: `${formatCount(sum(views))} in all`,
            floor: 2,
            note: `per ${step}`,
          } satisfies StepChartSpec,
          {
            id: "minutes",
            label: "Watch time",
            unit: "min",
            kind: "bars",
            series: [{ values: minutes }],
            format: formatMinutes,
            summary: `${formatMinutes(sum(minutes))} min in all`,
            floor: 1,
            note: `per ${step}`,
          } satisfies StepChartSpec,
        ]),
    ...(only === "counts"
      ? []
      : [
          {
            id: "ttff",
            label: "Time to first frame",
            unit: "ms",
            kind: "lines",
            series: [
              { name: "median", values: p50 },
              { name: "95th percentile", values: p95, secondary: true },
            ],
            format: (n: number) => whole.format(n),
            summary: span(p95, (n) => whole.format(n), "ms p95"),
            floor: 100,
          } satisfies StepChartSpec,
          {
            id: "rebuffer",
            label: "Rebuffering",
            unit: "%",
            kind: "lines",
            series: [{ values: rebuffer }],
            format: points,
            summary: span(rebuffer, points, "%"),
            floor: 1,
            ceiling: 100,
            note: "time stalled",
          } satisfies StepChartSpec,
          {
            id: "errors",
            label: "Error rate",
            unit: "%",
            kind: "lines",
            series: [{ values: errors }],
            format: points,
            summary: span(errors, points, "%"),
            floor: 1,
            ceiling: 100,
            note: "views with an error",
          } satisfies StepChartSpec,
        ]),
  ];
  return (
    <div className="space-y-4" data-testid="views-trends">
      {charts.map((chart) => (
        <StepChart key={chart.id} chart={chart} window={w} />
      ))}
      <StepTimeAxis window={w} />
    </div>
  );
}

const DIMENSIONS: { dimension: Dimension; label: string }[] = [
  { dimension: "browser", label: "Browser" },
  { dimension: "deviceType", label: "Device" },
  { dimension: "os", label: "Operating system" },
  { dimension: "country", label: "Country" },
];

/** Rows a breakdown lists before it adds up the rest. */
const TOP_ROWS = 5;

/** Who watched over the range: by browser, device type, operating system and country. */
export function Breakdowns({ of, window: w, className }: { of: ViewsOf; window: ViewWindow; className?: string }) {
  return (
    <div className={cx("grid gap-x-6 gap-y-5", className)} data-testid="views-breakdowns">
      {DIMENSIONS.map((d) => (
        <Breakdown key={d.dimension} of={of} window={w} {...d} />
      ))}
    </div>
  );
}

function Breakdown({ of, window: w, dimension, label }: { of: ViewsOf; window: ViewWindow; dimension: Dimension; label: string }) {
  const query = useViewershipBreakdown(of, w, dimension);
  const rows = (query.data ?? []).filter((r) => r.viewCount > 0);
  const total = rows.reduce((n, r) => n + r.viewCount, 0);
  // A "1 more" row would take the room of the one it stands for.
  const listed = rows.length === TOP_ROWS + 1 ? rows.length : TOP_ROWS;
  const shown = rows.slice(0, listed).map((r) => ({ name: nameOf(dimension, r[dimension]), views: r.viewCount, minutes: r.playtimeMins }));
  const rest = rows.slice(listed);
  if (rest.length) {
    shown.push({
      name: `${rest.length} more`,
      views: rest.reduce((n, r) => n + r.viewCount, 0),
      minutes: rest.reduce((n, r) => n + r.playtimeMins, 0),
    });
  }
  return (
    <section aria-label={`Views by ${label.toLowerCase()}`} data-testid={`breakdown-${dimension}`}>
      <h3 className="mb-2 text-xs font-medium text-zinc-700">{label}</h3>
      {query.isPending ? (
        <p className="text-xs text-zinc-500">Loading…</p>
      ) : query.isError ? (
        <FormErrors error={query.error} />
      ) : !shown.length ? (
        <p className="text-xs text-zinc-500">No views in this range.</p>
      ) : (
        <ul className="space-y-2">
          {shown.map((row) => (
            <li key={row.name} className="text-xs">
              <div className="flex items-baseline justify-between gap-3">
                <span className="truncate text-zinc-800">{row.name}</span>
                <span className="shrink-0 text-zinc-500 tabular-nums">
                  <span className="font-medium text-zinc-900">{formatCount(row.views)}</span> {row.views === 1 ? "view" : "views"} ·{" "}
                  {formatMinutes(row.minutes)} min
                </span>
              </div>
              <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
                <div className="h-full rounded-full bg-indigo-600" style={{ width: `${(row.views / total) * 100}%` }} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A dimension's value as people read it; players that did not tell are "Unknown". */
function nameOf(dimension: Dimension, value: string | undefined): string {
  if (!value) return "Unknown";
  return dimension === "deviceType" ? value.charAt(0).toUpperCase() + value.slice(1) : value;
}

/**
 * No views in the range: nobody has watched yet, or nobody lately (then a longer range shows
 * the earlier ones). Asks for the lifetime count only then.
 */
export function NoViews({ of, window: w, className }: { of: ViewsOf; window: ViewWindow; className?: string }) {
  const lifetime = useLifetimeViews(of, true);
  if (lifetime.isPending) return <LoadingState compact />;
  const ever = (lifetime.data ?? 0) > 0;
  return (
    <EmptyState
      className={cx("border-0 py-8", className)}
      icon={<ChartIcon className="size-6" />}
      title={ever ? `No views in ${RANGES[w.range].words}` : "No views yet"}
      description={
        ever
          ? "Earlier views show with a longer range."
          : "Views appear here within a minute of someone watching. Views in your own dashboard’s previews are not counted."
      }
    />
  );
}
