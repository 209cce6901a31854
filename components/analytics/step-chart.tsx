"use client";

import { useState, type KeyboardEvent, type PointerEvent } from "react";
import { AXIS_ROOM, ValueAxis } from "@/components/ui/value-axis";
import { cx } from "@/components/ui/cx";
import { niceCeiling, timeTicks } from "@/lib/client/chart-scale";
import { RANGES, type ViewWindow } from "@/lib/client/analytics-hooks";
import { unitAfter } from "./format";

/*
 * Viewership over a range, drawn as the ingest health graphs are (components/broadcasts/
 * health-graph.tsx): plain SVG stretched to the card's width, round values on the left, one time
 * axis under the charts, and a readout of a step under the pointer or picked with the arrow keys.
 * Counts are bars (a step without views is a real 0); rates are step lines, broken where a step
 * had no views (a rate of nothing is not 0).
 */

const W = 1000;
const H = 100;
/** Room the value axis takes left of every chart, so their time axes line up (as the health graphs). */

const DAY_MS = 86_400_000;
const hourOfDay = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
/** Day steps are the API's, cut at midnight UTC: their dates are UTC dates. */
const utcDate = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });
const localStep = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
/** Axis values are round (lib/client/chart-scale.ts), but half of 2.5 is 1.25: shown as it is. */

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/** A step as its readout names it: "Nov 27, 14:00" (an hour from then), or "Nov 27" (a UTC day). */
export const stepName = (w: ViewWindow, at: number) => (w.stepMs >= DAY_MS ? utcDate.format(at) : localStep.format(at));

export interface ChartSeries {
  /** Its name in the readout when a chart has several ("p50"). */
  name?: string;
  /** One value a step (undefined: nothing to show there). */
  values: (number | undefined)[];
  /** A second line beside the first: drawn lighter and dashed. */
  secondary?: boolean;
}

export interface StepChartSpec {
  id: string;
  label: string;
  unit: string;
  kind: "bars" | "lines";
  series: ChartSeries[];
  format: (n: number) => string;
  /** What the chart's caption says when nothing is picked: a total, or the range of a rate. */
  summary: string;
  /** The least top of the value axis, so a few views do not fill the chart. */
  floor: number;
  /** The most it can be (a share: 100%), so the axis does not go past it. */
  ceiling?: number;
  /** What the line means, beside its label on wider screens. */
  note?: string;
}

/** A reading per step of the window, as bars or lines. */
export function StepChart({ chart, window: w }: { chart: StepChartSpec; window: ViewWindow }) {
  const [cursor, setCursor] = useState<number | null>(null);
  const n = w.steps.length;
  const all = chart.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined));
  const top = Math.min(niceCeiling(Math.max(...all, 0) * 1.1, chart.floor), chart.ceiling ?? Number.POSITIVE_INFINITY);
  const stepWidth = W / n;
  const y = (v: number) => H - (v / top) * H;
  const picked = cursor === null ? undefined : Math.min(cursor, n - 1);
  const shown = chart.series.filter((s) => picked !== undefined && s.values[picked] !== undefined);
  const readout =
    picked === undefined
      ? undefined
      : `${stepName(w, w.steps[picked])}: ${
          shown.length
            ? `${shown.map((s) => `${s.name ? `${s.name} ` : ""}${chart.format(s.values[picked]!)}`).join(" · ")}${unitAfter(chart.unit)}`
            : "no views"
        }`;

  const pointAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setCursor(Math.min(Math.max(Math.floor(((event.clientX - box.left) / box.width) * n), 0), n - 1));
  };
  const step = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
    const current = cursor ?? n - 1;
    const next = event.key === "Home" ? 0 : event.key === "End" ? n - 1 : moves[event.key] !== undefined ? current + moves[event.key] : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setCursor(Math.min(Math.max(next, 0), n - 1));
  };

  return (
    <figure data-testid={`views-chart-${chart.id}`}>
      <figcaption className="mb-1 flex items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-zinc-700">
          {chart.label} {chart.note && <span className="hidden font-normal text-zinc-500 sm:inline">({chart.note})</span>}
        </span>
        <span className={cx("text-right tabular-nums", readout ? "font-medium text-zinc-900" : "text-zinc-500")} data-testid="views-chart-readout">
          {readout ?? chart.summary}
        </span>
      </figcaption>
      <div className={cx("relative", AXIS_ROOM)}>
        <ValueAxis top={top} unit={unitAfter(chart.unit)} />
        <div
          role="slider"
          tabIndex={0}
          aria-label={`${chart.label} over ${RANGES[w.range].words}`}
          aria-valuemin={0}
          aria-valuemax={n - 1}
          aria-valuenow={picked ?? n - 1}
          aria-valuetext={readout ?? `${chart.label}: ${chart.summary}`}
          onPointerMove={pointAt}
          onPointerLeave={() => setCursor(null)}
          onFocus={() => setCursor((c) => c ?? n - 1)}
          onBlur={() => setCursor(null)}
          onKeyDown={step}
          className="relative rounded-md outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
        >
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            aria-hidden="true"
            className="block h-16 w-full overflow-visible rounded-md bg-zinc-50 ring-1 ring-zinc-200 ring-inset"
          >
            <line x1={0} x2={W} y1={H / 2} y2={H / 2} stroke="currentColor" strokeOpacity={0.5} vectorEffect="non-scaling-stroke" className="text-zinc-200" />
            {picked !== undefined && (
              <rect x={picked * stepWidth} width={stepWidth} y={0} height={H} fill="currentColor" className="text-indigo-100" fillOpacity={0.6} />
            )}
            {chart.kind === "bars"
              ? chart.series[0].values.map((v, i) =>
                  v ? (
                    <rect
                      key={i}
                      x={i * stepWidth + stepWidth * 0.15}
                      width={stepWidth * 0.7}
                      y={y(v)}
                      height={H - y(v)}
                      fill="currentColor"
                      className={picked === i ? "text-indigo-800" : "text-indigo-600"}
                    />
                  ) : null,
                )
              : chart.series.map((s, k) => (
                  <path
                    key={k}
                    d={stepPath(s.values, stepWidth, y)}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={1.75}
                    strokeLinejoin="round"
                    strokeDasharray={s.secondary ? "5 4" : undefined}
                    vectorEffect="non-scaling-stroke"
                    className={s.secondary ? "text-indigo-400" : "text-indigo-600"}
                  />
                ))}
          </svg>
        </div>
      </div>
      {chart.kind === "lines" && chart.series.length > 1 && (
        <p className={cx("mt-1 flex flex-wrap gap-x-4 text-[11px] text-zinc-500", AXIS_ROOM)}>
          {chart.series.map((s) => (
            <span key={s.name} className="inline-flex items-center gap-1.5">
              <svg viewBox="0 0 16 2" className={cx("h-0.5 w-4", s.secondary ? "text-indigo-400" : "text-indigo-600")} aria-hidden="true">
                <line x1={0} x2={16} y1={1} y2={1} stroke="currentColor" strokeWidth={2} strokeDasharray={s.secondary ? "4 3" : undefined} />
              </svg>
              {s.name}
            </span>
          ))}
        </p>
      )}
    </figure>
  );
}

/** A level across each step with a value, joined to the next step's, broken over steps without one. */
function stepPath(values: (number | undefined)[], stepWidth: number, y: (v: number) => number): string {
  let path = "";
  values.forEach((v, i) => {
    if (v === undefined) return;
    const [x0, x1, level] = [(i * stepWidth).toFixed(1), ((i + 1) * stepWidth).toFixed(1), y(v).toFixed(1)];
    path += `${values[i - 1] === undefined ? "M" : "L"}${x0},${level}L${x1},${level}`;
  });
  return path;
}

/**
 * Round times between, by the room there is (as the health graphs' axis): a label is some 45 px
 * wide, a sixth of a phone's axis.
 */
const TICKS = [
  { most: 2, margin: 0.3, className: "sm:hidden" },
  { most: 5, margin: 0.12, className: "hidden sm:inline" },
];

/** When the window starts, and round times between, under its charts; it ends now. */
export function StepTimeAxis({ window: w }: { window: ViewWindow }) {
  const span = w.to - w.from;
  const label = (t: number, tickMs: number) => (tickMs >= DAY_MS ? utcDate.format(t) : hourOfDay.format(t));
  return (
    <div className={AXIS_ROOM} data-testid="views-time-axis">
      <div className="relative h-4 text-[11px] text-zinc-500 tabular-nums">
        <span className="absolute left-0">{label(w.from, span > 2 * DAY_MS ? DAY_MS : w.stepMs)}</span>
        {TICKS.map(({ most, margin, className }) => {
          const { ticks, stepMs } = timeTicks(w.from, w.to, most, margin);
          return ticks.map((t) => (
            <span key={`${most}-${t}`} className={cx("absolute -translate-x-1/2", className)} style={{ left: percent((t - w.from) / span) }}>
              {label(t, stepMs)}
            </span>
          ));
        })}
        <span className="absolute right-0">now</span>
      </div>
      {w.stepMs >= DAY_MS && <p className="mt-0.5 text-[11px] text-zinc-500">A bar a day, days in UTC.</p>}
    </div>
  );
}
