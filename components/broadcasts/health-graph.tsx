"use client";

import { useState, type KeyboardEvent, type PointerEvent } from "react";
import { AXIS_ROOM, ValueAxis } from "@/components/ui/value-axis";
import { cx } from "@/components/ui/cx";
import { AlertIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { niceCeiling, timeTicks } from "@/lib/client/chart-scale";
import { useSessionHealth } from "@/lib/client/hooks";
import { healthBucketMs, MAX_KEYFRAME_INTERVAL_S } from "@/lib/sessions/health-readings";
import type { HealthReading, HealthSample, SessionHealth } from "@/lib/sessions/schema";

const clock = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const clockWithSeconds = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });
/** Axis values are round (lib/client/chart-scale.ts), but half of 2.5 is 1.25: shown as it is. */

interface Chart {
  reading: HealthReading;
  label: string;
  unit: string;
  value: (s: HealthSample) => number | undefined;
  format: (n: number) => string;
  /** What the chart's line means over a bucket. */
  note: string;
  /** A level to draw, and what it says. */
  guide?: { value: number; label: string };
}

const CHARTS: Chart[] = [
  { reading: "bitrate", label: "Bitrate", unit: "kbps", value: (s) => s.bitrateKbps, format: (n) => whole.format(n), note: "average" },
  { reading: "fps", label: "Frame rate", unit: "fps", value: (s) => s.fps, format: (n) => oneDecimal.format(n), note: "lowest" },
  {
    reading: "keyframeInterval",
    label: "Keyframe interval",
    unit: "s",
    value: (s) => s.keyframeIntervalS,
    format: (n) => oneDecimal.format(n),
    note: "longest",
    guide: { value: MAX_KEYFRAME_INTERVAL_S, label: `${MAX_KEYFRAME_INTERVAL_S} s` },
  },
  // How far the live output trailed the encoder: the media node's side, not the encoder's.
  { reading: "transcoding", label: "Live delay", unit: "s", value: (s) => s.lagS, format: (n) => oneDecimal.format(n), note: "longest" },
];

/** A broadcast's ingest health over its whole length, refreshing while it is live. */
export function HealthHistory({ sessionId, live }: { sessionId: string; live: boolean }) {
  const health = useSessionHealth(sessionId, live);
  if (health.isPending) return <LoadingState compact />;
  if (health.isError) return <FormErrors error={health.error} />;
  return <HealthGraphs health={health.data} />;
}

export function HealthGraphs({ health }: { health: SessionHealth }) {
  if (!health.samples.length) {
    return (
      <p className="text-sm text-zinc-500">
        {health.isActive ? "The first readings arrive within a few seconds." : "No readings were kept for this broadcast."}
      </p>
    );
  }
  const from = health.startedAt;
  const last = health.samples.at(-1)!;
  const to = Math.max(health.endedAt ?? Math.max(Date.now(), last.at + healthBucketMs(last.at - from)), from + 1);
  return (
    <div className="space-y-4" data-testid="health-history">
      {health.issues.length > 0 && (
        <ul className="space-y-2" aria-label="What to fix">
          {health.issues.map((issue) => (
            <li key={issue.reading} className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset">
              <AlertIcon className="mt-px size-4 shrink-0 text-amber-600" />
              <span>{issue.message}</span>
            </li>
          ))}
        </ul>
      )}
      {CHARTS.map((chart) => (
        <LineChart key={chart.reading} chart={chart} health={health} from={from} to={to} warnAt={health.issues.find((i) => i.reading === chart.reading)?.at} />
      ))}
      <TimeAxis from={from} to={to} live={health.isActive} />
    </div>
  );
}

/** "28–30", or "30" when it never moved. */
function range(values: number[], format: (n: number) => string): string {
  const [low, high] = [format(Math.min(...values)), format(Math.max(...values))];
  return low === high ? low : `${low}–${high}`;
}

const W = 1000;
const H = 100;
/** Room the value axis takes left of every chart, so their time axes line up. */

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/**
 * Round times between, by the room there is: a label (with seconds) is some 55 px wide, a fifth of
 * a phone's axis and a tenth of a wide one, and must clear the start and end labels.
 */
const TICKS = [
  { most: 2, margin: 0.35, className: "sm:hidden" },
  { most: 4, margin: 0.18, className: "hidden sm:inline" },
];

/** When the broadcast started and ended (or now), and round times between, under the charts. */
function TimeAxis({ from, to, live }: { from: number; to: number; live: boolean }) {
  const span = to - from;
  const format = span < 4 * 60_000 ? clockWithSeconds : clock;
  return (
    <div className={AXIS_ROOM} data-testid="health-time-axis">
      <div className="relative h-4 text-[11px] text-zinc-500 tabular-nums">
        <span className="absolute left-0">{format.format(from)}</span>
        {TICKS.map(({ most, margin, className }) =>
          timeTicks(from, to, most, margin).ticks.map((t) => (
            <span key={`${most}-${t}`} className={cx("absolute -translate-x-1/2", className)} style={{ left: percent((t - from) / span) }}>
              {format.format(t)}
            </span>
          )),
        )}
        <span className="absolute right-0">{live ? "now" : format.format(to)}</span>
      </div>
    </div>
  );
}

/**
 * One reading as a line over the broadcast: plain SVG stretched to the card's width (strokes keep
 * their width), round values on its left, and a readout of the reading at a time under the pointer
 * or, from the keyboard, at the bucket the arrow keys pick (a slider over the buckets).
 */
function LineChart({ chart, health, from, to, warnAt }: { chart: Chart; health: SessionHealth; from: number; to: number; warnAt?: number }) {
  const [cursor, setCursor] = useState<number | null>(null);
  const points = health.samples.flatMap((s) => {
    const v = chart.value(s);
    return v === undefined ? [] : [{ at: s.at, v }];
  });
  const values = points.map((p) => p.v);
  const top = niceCeiling(Math.max(...values, chart.guide?.value ?? 0) * 1.1);
  // A bucket's reading sits at its middle; the first bucket may start before the broadcast did.
  const fraction = (at: number) => (Math.min(Math.max(at + healthBucketMs(at - from) / 2, from), to) - from) / (to - from);
  const x = (at: number) => fraction(at) * W;
  const y = (v: number) => H - (v / top) * H;
  // A gap of several buckets (the encoder was away, a reconnect) breaks the line rather than bridging it.
  let path = "";
  points.forEach((p, i) => {
    const gap = i > 0 && p.at - points[i - 1].at > 3 * healthBucketMs(p.at - from);
    path += `${i === 0 || gap ? "M" : "L"}${x(p.at).toFixed(1)},${y(p.v).toFixed(1)}`;
  });
  const warn = warnAt !== undefined;
  const picked = cursor === null ? undefined : points[Math.min(cursor, points.length - 1)];
  const readout = picked && `${clockWithSeconds.format(picked.at)}: ${chart.format(picked.v)} ${chart.unit}`;

  /** The bucket nearest the pointer. */
  const pointAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const f = (event.clientX - box.left) / box.width;
    let best = 0;
    points.forEach((p, i) => {
      if (Math.abs(fraction(p.at) - f) < Math.abs(fraction(points[best].at) - f)) best = i;
    });
    setCursor(best);
  };
  const step = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
    const current = cursor ?? points.length - 1;
    const next = event.key === "Home" ? 0 : event.key === "End" ? points.length - 1 : moves[event.key] !== undefined ? current + moves[event.key] : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setCursor(Math.min(Math.max(next, 0), points.length - 1));
  };

  return (
    <figure data-testid={`health-graph-${chart.reading}`} data-warn={warn || undefined}>
      <figcaption className="mb-1 flex items-baseline justify-between gap-2 text-xs">
        <span className={cx("font-medium", warn ? "text-amber-800" : "text-zinc-700")}>
          {warn && <AlertIcon className="mr-1 inline size-3.5 align-[-2px] text-amber-600" />}
          {chart.label}{" "}
          <span className="hidden font-normal text-zinc-500 sm:inline">
            ({chart.note} per {healthBucketMs(0) / 1000} s)
          </span>
        </span>
        <span className={cx("text-right tabular-nums", readout ? "font-medium text-zinc-900" : "text-zinc-500")} data-testid="health-readout">
          {readout ?? (points.length ? `${range(values, chart.format)} ${chart.unit}` : "no readings")}
        </span>
      </figcaption>
      <div className={cx("relative", AXIS_ROOM)}>
        <ValueAxis top={top} unit={` ${chart.unit}`} />
        <div
          role="slider"
          tabIndex={points.length ? 0 : -1}
          aria-label={`${chart.label} over the broadcast`}
          aria-valuemin={0}
          aria-valuemax={Math.max(points.length - 1, 0)}
          aria-valuenow={cursor ?? Math.max(points.length - 1, 0)}
          aria-valuetext={readout ?? (points.length ? `${chart.label} ${range(values, chart.format)} ${chart.unit}` : "no readings")}
          onPointerMove={points.length ? pointAt : undefined}
          onPointerLeave={() => setCursor(null)}
          onFocus={() => setCursor((c) => c ?? points.length - 1)}
          onBlur={() => setCursor(null)}
          onKeyDown={points.length ? step : undefined}
          className="relative rounded-md outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
        >
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            aria-hidden="true"
            className={cx("block h-16 w-full rounded-md ring-1 ring-inset", warn ? "bg-amber-50/60 ring-amber-200" : "bg-zinc-50 ring-zinc-200")}
          >
            <line x1={0} x2={W} y1={H / 2} y2={H / 2} stroke="currentColor" strokeOpacity={0.5} vectorEffect="non-scaling-stroke" className="text-zinc-200" />
            {chart.guide && (
              <line
                x1={0}
                x2={W}
                y1={y(chart.guide.value)}
                y2={y(chart.guide.value)}
                stroke="currentColor"
                strokeDasharray="6 6"
                vectorEffect="non-scaling-stroke"
                className="text-zinc-400"
              />
            )}
            {warnAt !== undefined && (
              <line
                x1={x(warnAt)}
                x2={x(warnAt)}
                y1={0}
                y2={H}
                stroke="currentColor"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
                className="text-amber-500"
              />
            )}
            <path
              d={path}
              fill="none"
              stroke="currentColor"
              strokeWidth={1.75}
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
              className={warn ? "text-amber-600" : "text-indigo-600"}
            />
          </svg>
          {picked && (
            // Drawn in HTML over the stretched SVG, so the dot stays round.
            <div className="pointer-events-none absolute inset-y-0 w-px bg-zinc-400" style={{ left: percent(fraction(picked.at)) }}>
              <span
                className="absolute left-1/2 size-2 -translate-x-1/2 -translate-y-1/2 rounded-full bg-indigo-600 ring-2 ring-white"
                style={{ top: percent(1 - picked.v / top) }}
              />
            </div>
          )}
        </div>
      </div>
      {chart.guide && <p className={cx("mt-0.5 text-[11px] text-zinc-500", AXIS_ROOM)}>Dashed: the {chart.guide.label} encoders should keep to.</p>}
    </figure>
  );
}
