/** Axis values of the dashboard's small charts: round numbers people read at a glance. */

/** The smallest of 1, 2, 2.5 and 5 times a power of ten at or above `value` (at least `floor`). */
export function niceCeiling(value: number, floor = 1): number {
  const v = Math.max(value, floor);
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((n) => n >= v - 1e-9)!;
}

/** Up to a day, then days and weeks for axes of a month or more (viewership over 30 or 90 days). */
const STEPS_MS = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400].map(
  (s) => s * 1000,
);

/**
 * Times on a time axis from `from` to `to`: whole multiples of a round step (30 s, 5 min, 1 h…),
 * at most `most` of them, none within `margin` (a fraction of the axis) of an edge, where the
 * axis names its start and end.
 */
export function timeTicks(from: number, to: number, most = 4, margin = 0.05): { ticks: number[]; stepMs: number } {
  const span = Math.max(to - from, 1);
  const stepMs = STEPS_MS.find((step) => span / step <= most) ?? STEPS_MS.at(-1)!;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) {
    const at = (t - from) / span;
    if (at >= margin && at <= 1 - margin) ticks.push(t);
  }
  return { ticks, stepMs };
}
