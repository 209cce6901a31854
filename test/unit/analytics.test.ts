import assert from "node:assert/strict";
import { test } from "node:test";
import { csvOf } from "@/lib/analytics/csv";
import { quantileOf } from "@/lib/analytics/query";
import { TTFF_BUCKETS_MS } from "@/lib/analytics/rollup";
import { Beacon, ViewsQuery } from "@/lib/analytics/schema";
import { newViewId } from "@/lib/client/view-beacons";

test("a TTFF quantile from a histogram: interpolated within its bucket, 0 without views, the last bucket read as its lower bound", () => {
  const empty = Array(TTFF_BUCKETS_MS.length + 1).fill(0);
  assert.equal(quantileOf(empty, 0.5), 0);
  // 10 views in [200, 300) ms: the median halfway through it.
  const one = [...empty];
  one[2] = 10;
  assert.equal(quantileOf(one, 0.5), 250);
  // 90 fast (under 100 ms), 10 slow (10 s and more): p50 fast, p95 the slow bucket's bound.
  const two = [...empty];
  two[0] = 90;
  two[TTFF_BUCKETS_MS.length] = 10;
  assert.ok(quantileOf(two, 0.5) < 100);
  assert.equal(quantileOf(two, 0.95), 10_000);
});

test("CSV: a header of every field, quotes where needed, and no formula a spreadsheet would run", () => {
  const csv = csvOf([
    { playbackId: "abc", viewCount: 3 },
    { playbackId: "d,e", viewCount: 1, browser: 'say "hi"' },
    { playbackId: "=HYPERLINK(1)", viewCount: 0 },
  ]);
  assert.equal(csv, 'playbackId,viewCount,browser\r\nabc,3,\r\n"d,e",1,"say ""hi"""\r\n\'=HYPERLINK(1),0,\r\n');
});

test("a beacon: totals within bounds, ids of the right shape, nothing unknown", () => {
  const good = { playbackId: "abcd1234", viewId: "0123456789abcdef", viewerId: "viewer-0001", event: "heartbeat", playedMs: 1000 };
  assert.equal(Beacon.safeParse(good).success, true);
  for (const bad of [
    { ...good, playedMs: -1 },
    { ...good, playedMs: 8 * 24 * 3600 * 1000 },
    { ...good, ttffMs: 1.5 },
    { ...good, viewId: "short" },
    { ...good, playbackId: "a/b" },
    { ...good, event: "other" },
    { ...good, more: 1 },
  ])
    assert.equal(Beacon.safeParse(bad).success, false, JSON.stringify(bad));
});

test("a views query: breakdowns as the SDK sends them or comma-separated, times as RFC 3339 or epoch ms, uncollected breakdowns named", () => {
  const q = ViewsQuery.parse({ breakdownBy: ["browser", "country"], from: "2026-11-01T00:00:00.000Z", to: "1795000000000", timeStep: "day" });
  assert.deepEqual(q.breakdownBy, ["browser", "country"]);
  assert.equal(q.from, Date.parse("2026-11-01T00:00:00.000Z"));
  assert.equal(q.to, 1795000000000);
  assert.deepEqual(ViewsQuery.parse({ breakdownBy: "os,deviceType" }).breakdownBy, ["os", "deviceType"]);
  const uncollected = ViewsQuery.safeParse({ breakdownBy: ["geohash"] });
  assert.match(JSON.stringify(uncollected.error?.issues), /not collected/);
  assert.equal(ViewsQuery.safeParse({ from: "last tuesday" }).success, false);
});

test("a view id: the time it began then random bits, so that ids sort as their views began, and the beacon schema takes it", () => {
  const early = newViewId(Date.UTC(2026, 10, 27, 12));
  const later = newViewId(Date.UTC(2026, 10, 27, 12) + 1);
  assert.match(early, /^[0-9a-f]{32}$/);
  assert.equal(early.slice(0, 12), Date.UTC(2026, 10, 27, 12).toString(16).padStart(12, "0"));
  assert.ok(early < later);
  // Two views begun in the same millisecond differ in their random part.
  assert.notEqual(newViewId(1_000), newViewId(1_000));
  assert.ok(Beacon.safeParse({ playbackId: "abcd1234", viewId: newViewId(), viewerId: "viewer-0001", event: "start", playedMs: 0 }).success);
});
