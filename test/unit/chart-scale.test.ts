import assert from "node:assert/strict";
import { test } from "node:test";
import { niceCeiling, timeTicks } from "@/lib/client/chart-scale";

test("a chart's top is a round number at or above its highest value", () => {
  assert.deepEqual(
    [2229, 4509, 30, 2.1, 0.3, 0, 1000].map((v) => niceCeiling(v)),
    [2500, 5000, 50, 2.5, 1, 1, 1000],
  );
  assert.equal(niceCeiling(0.3, 0.1), 0.5);
});

test("time ticks are round times inside the span, a few of them", () => {
  const from = Date.UTC(2026, 0, 1, 14, 2, 17);
  const { ticks, stepMs } = timeTicks(from, from + 95_000);
  assert.equal(stepMs, 30_000);
  assert.deepEqual(
    ticks.map((t) => new Date(t).toISOString().slice(11, 19)),
    ["14:02:30", "14:03:00", "14:03:30"],
  );
  const long = timeTicks(from, from + 2 * 3600_000);
  assert.equal(long.stepMs, 1800_000);
  assert.ok(long.ticks.length <= 4 && long.ticks.every((t) => t % 1800_000 === 0));
  // A month (viewership per day): weeks apart, not a tick a day.
  const month = timeTicks(from, from + 30 * 86_400_000);
  assert.equal(month.stepMs, 14 * 86_400_000);
  assert.ok(month.ticks.length >= 1 && month.ticks.length <= 4);
});
