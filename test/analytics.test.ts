import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { Livepeer } from "livepeer";
import { BreakdownBy, QueryParamBreakdownBy as By, TimeStep } from "livepeer/models/operations";
import { operations } from "@/lib/api/operations";
import { BASE, newAccount, raw } from "./support/client";
import { until } from "./support/media";

/**
 * Viewer analytics over HTTP: beacons as players send them (POST /api/data/views/beacon), and
 * what the viewership API (Livepeer's metrics.*) then reports. Real players in Chromium sending
 * them are e2e/viewer-analytics.spec.ts.
 */

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

interface Beacon {
  playbackId: string;
  viewId: string;
  viewerId: string;
  event: string;
  playedMs?: number;
  ttffMs?: number;
  rebufferCount?: number;
  rebufferMs?: number;
  errorCount?: number;
  errorType?: string;
  ended?: boolean;
  mode?: string;
}

const beacon = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${BASE}/api/data/views/beacon`, {
    method: "POST",
    headers: { "content-type": "text/plain", "user-agent": CHROME, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** A view's life in beacons: start, first frame, heartbeats to `playedMs`, then its exit. */
async function view(playbackId: string, opts: { playedMs: number; ttffMs?: number; rebufferMs?: number; error?: string; userAgent?: string; ended?: boolean }) {
  const base: Beacon = { playbackId, viewId: randomUUID(), viewerId: randomUUID(), event: "start", mode: "hls" };
  const headers = { "user-agent": opts.userAgent ?? CHROME };
  const send = async (b: Partial<Beacon>) => assert.equal((await beacon({ ...base, ...b }, headers)).status, 204, JSON.stringify(b));
  await send({});
  if (opts.ttffMs !== undefined) await send({ event: "firstFrame", ttffMs: opts.ttffMs });
  await send({ event: "heartbeat", ttffMs: opts.ttffMs, playedMs: opts.playedMs, rebufferCount: opts.rebufferMs ? 1 : 0, rebufferMs: opts.rebufferMs ?? 0 });
  if (opts.error)
    await send({ event: "error", ttffMs: opts.ttffMs, playedMs: opts.playedMs, errorCount: 1, errorType: opts.error, rebufferMs: opts.rebufferMs ?? 0 });
  if (opts.ended ?? true) await send({ event: "exit", ttffMs: opts.ttffMs, playedMs: opts.playedMs, rebufferMs: opts.rebufferMs ?? 0, ended: true });
  return base;
}

describe("viewer analytics", () => {
  test("beacons become views: counts, watch time, TTFF, rebuffering, errors and exits before start, by time step and breakdown, through the SDK's five metrics calls", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "watched" })).body;
    const asset = (await api.post("asset/request-upload", { name: "watched video" })).body.asset;
    const since = Date.now() - 1000;
    // Three desktop Chrome views of the stream (one errored, one left before its first frame), one iPhone view of the asset.
    // (A view may claim at most a minute more than the time since it began: these all began just now.)
    await view(stream.playbackId, { playedMs: 40_000, ttffMs: 400, rebufferMs: 3000 });
    await view(stream.playbackId, { playedMs: 20_000, ttffMs: 800, error: "networkError" });
    await view(stream.playbackId, { playedMs: 0 });
    await view(asset.playbackId, { playedMs: 45_000, ttffMs: 1200, userAgent: IPHONE });

    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    // Rolled up within seconds (every 10 s).
    const rows = await until(
      "the views rolled up",
      async () => {
        const got = await sdk.metrics.getViewership({ from: since, breakdownBy: [By.PlaybackId] });
        // Every beacon rolled up, not only each view's first: 4 views, 105 s watched.
        const views = (got.data ?? []).reduce((n, r) => n + r.viewCount, 0);
        const minutes = (got.data ?? []).reduce((n, r) => n + r.playtimeMins, 0);
        return views === 4 && Math.abs(minutes - 1.75) < 1e-9 && got.data;
      },
      60_000,
      500,
    );
    const ofStream = rows.find((r) => r.playbackId === stream.playbackId)!;
    assert.equal(ofStream.viewCount, 3);
    assert.equal(ofStream.playtimeMins, 1);
    assert.equal(ofStream.ttffMs, 600, "the mean of 400 and 800 (the view without a first frame has none)");
    assert.ok(Math.abs(ofStream.rebufferRatio! - 3000 / 63_000) < 1e-9, `3 s stalled over 60 s watched: ${ofStream.rebufferRatio}`);
    assert.ok(Math.abs(ofStream.errorRate! - 1 / 3) < 1e-9);
    assert.equal(ofStream.exitsBeforeStart, 1);
    const ofAsset = rows.find((r) => r.playbackId === asset.playbackId)!;
    assert.deepEqual([ofAsset.viewCount, ofAsset.playtimeMins, ofAsset.ttffMs], [1, 0.75, 1200]);

    // By device and browser, per hour.
    const byDevice = (await sdk.metrics.getViewership({ from: new Date(since), timeStep: TimeStep.Hour, breakdownBy: [By.DeviceType, By.Browser, By.Os] }))
      .data!;
    const desktop = byDevice.find((r) => r.deviceType === "desktop")!;
    assert.deepEqual([desktop.browser, desktop.os, desktop.viewCount], ["Chrome", "Linux", 3]);
    const mobile = byDevice.find((r) => r.deviceType === "mobile")!;
    assert.deepEqual([mobile.browser, mobile.os, mobile.viewCount], ["Mobile Safari", "iOS", 1]);
    assert.equal(desktop.timestamp! % 3_600_000, 0, "the hour's start");
    assert.ok(desktop.timestamp! <= Date.now() && desktop.timestamp! > since - 3_600_000);

    // One stream, by assetId or streamId (the creator call).
    const creator = await sdk.metrics.getCreatorViewership({ streamId: stream.id });
    assert.deepEqual(
      creator.data!.map((r) => [r.viewCount, r.playtimeMins]),
      [[3, 1]],
    );
    // Public: views and minutes only, no key.
    const open = new Livepeer({ serverURL: `${BASE}/api` });
    const total = (await open.metrics.getPublicViewership(asset.playbackId)).data!;
    assert.deepEqual([total.playbackId, total.viewCount, total.playtimeMins], [asset.playbackId, 1, 0.75]);
    assert.deepEqual((await open.metrics.getPublicViewership("unknownplayback")).data, { playbackId: "unknownplayback", viewCount: 0, playtimeMins: 0 });

    // Now: views with a beacon in the last 30 s and not ended. One still open.
    const open1 = await view(stream.playbackId, { playedMs: 5000, ttffMs: 300, ended: false });
    const now = (await sdk.metrics.getRealtimeViewership(stream.playbackId, undefined, [BreakdownBy.Browser])).data!;
    assert.deepEqual(now, [{ browser: "Chrome", viewCount: 1, errorRate: 0 }]);
    assert.equal((await beacon({ ...open1, event: "exit", playedMs: 6000, ended: true })).status, 204);
    assert.deepEqual((await sdk.metrics.getRealtimeViewership(stream.playbackId)).data, [{ viewCount: 0, errorRate: 0 }]);

    // Usage: what viewers watched of this account's content.
    const usage = (await sdk.metrics.getUsage({ from: since })).usageMetric!;
    assert.equal(usage.userID, (await api.get("user/me")).body.id);
    // 1.75 min, and the 6 s of the view still open just now once it is rolled up.
    assert.ok(usage.deliveryUsageMins! > 1.75 - 1e-9 && usage.deliveryUsageMins! <= 1.85, JSON.stringify(usage));
    assert.equal(usage.totalUsageMins, 0, "nothing transcoded yet");

    // CSV for a spreadsheet.
    const csv = await fetch(`${BASE}/api/data/views/query?breakdownBy[]=playbackId&from=${since}`, {
      headers: { authorization: `Bearer ${api.key}`, accept: "text/csv" },
    });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    assert.equal(lines[0].split(",")[0], "playbackId");
    assert.ok(lines.some((l) => l.startsWith(`${stream.playbackId},`)));
  });

  test("each account sees only its own content's views; another's stream or asset is 404", async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const stream = (await a.post("stream", { name: "mine" })).body;
    await view(stream.playbackId, { playedMs: 10_000, ttffMs: 500 });
    const sdkA = new Livepeer({ apiKey: a.key, serverURL: `${BASE}/api` });
    await until(
      "a's view rolled up",
      async () => ((await sdkA.metrics.getViewership({ playbackId: stream.playbackId })).data?.[0]?.viewCount ?? 0) === 1,
      60_000,
      500,
    );
    const asB = await b.call(operations.getViewership, { query: { playbackId: stream.playbackId } });
    assert.equal(asB.status, 200);
    assert.deepEqual(
      asB.body.map((r) => r.viewCount),
      [0],
      "b asking for a's playback id sees nothing",
    );
    assert.equal((await b.call(operations.getViewership, { query: { streamId: stream.id } })).status, 404);
    assert.equal((await b.call(operations.getCreatorViewership, { query: { streamId: stream.id } })).status, 404);
    assert.deepEqual((await b.call(operations.getRealtimeViewership, { query: { breakdownBy: ["playbackId"] } })).body, []);
    assert.equal((await b.call(operations.getUsage, {})).body.DeliveryUsageMins, 0);
    // Without a key: 401, as every private operation.
    assert.equal((await fetch(`${BASE}/api/data/views/query`)).status, 401);
  });

  test("bad queries are refused with the reason: unknown or uncollected breakdowns, bad times and steps, the creator call without exactly one id", async () => {
    const api = await newAccount();
    const bad = async (path: string) => {
      const res = await api.get(path);
      assert.equal(res.status, 422, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.errors.join("; ");
    };
    assert.match(await bad("data/views/query?breakdownBy[]=geohash"), /not collected/);
    assert.match(await bad("data/views/query?breakdownBy[]=shoeSize"), /must be one of/);
    assert.match(await bad("data/views/query?from=yesterday"), /RFC 3339/);
    assert.match(await bad("data/views/query?timeStep=minute"), /timeStep/);
    assert.match(await bad("data/views/now?from=1"), /from/);
    assert.match(await bad("data/views/query/creator"), /exactly one of assetId or streamId/);
    assert.match(await bad("data/usage/query?timeStep=week"), /timeStep/);
  });

  test("hostile beacons: 2,000 malformed, oversized, out of bounds, unknown or misdirected ones are refused with a 4xx, never a 5xx, and store nothing", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "attacked" })).body;
    const good: Beacon = { playbackId: stream.playbackId, viewId: randomUUID(), viewerId: randomUUID(), event: "heartbeat" };
    const variants: { body: string; headers?: Record<string, string> }[] = [
      { body: "not json" },
      { body: "[1,2,3]" },
      { body: "null" },
      { body: JSON.stringify({ ...good, playedMs: -5 }) },
      { body: JSON.stringify({ ...good, playedMs: 1e15 }) },
      { body: JSON.stringify({ ...good, playedMs: "lots" }) },
      { body: JSON.stringify({ ...good, ttffMs: 1.5 }) },
      { body: JSON.stringify({ ...good, rebufferCount: 1e9 }) },
      { body: JSON.stringify({ ...good, event: "launch" }) },
      { body: JSON.stringify({ ...good, viewId: "short" }) },
      { body: JSON.stringify({ ...good, viewId: "x".repeat(65) }) },
      { body: JSON.stringify({ ...good, viewId: "'; DROP TABLE views; --" }) },
      { body: JSON.stringify({ ...good, playbackId: "../../etc/passwd" }) },
      { body: JSON.stringify({ ...good, playbackId: "nosuchplaybackid" }) },
      { body: JSON.stringify({ ...good, extra: true }) },
      { body: JSON.stringify({ ...good, errorType: "e".repeat(65) }) },
      { body: JSON.stringify({ ...good, timezone: "z".repeat(200) }) },
      { body: JSON.stringify({ ...good, mode: "carrier-pigeon" }) },
      { body: JSON.stringify({ ...good, pad: "x".repeat(5000) }) },
      { body: JSON.stringify(good), headers: { "content-type": "application/x-www-form-urlencoded" } },
      { body: JSON.stringify({ ...good, viewerId: { $ne: null } }) },
      { body: `{"playbackId": "${stream.playbackId}", "viewId": "${"a".repeat(10)}",` },
    ];
    const statuses = new Map<number, number>();
    const all = Array.from({ length: 2000 }, (_, i) => variants[i % variants.length]);
    for (let i = 0; i < all.length; i += 50) {
      const results = await Promise.all(all.slice(i, i + 50).map((v) => beacon(v.body, v.headers).then(async (r) => (await r.arrayBuffer(), r.status))));
      for (const s of results) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
    assert.ok(
      [...statuses.keys()].every((s) => s >= 400 && s < 500),
      `every answer a 4xx: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    assert.deepEqual([...statuses.keys()].sort(), [400, 404, 413, 415, 422], JSON.stringify(Object.fromEntries(statuses)));
    // A body that never ends is cut at 4 KiB, not read for ever.
    const endless = await raw(BASE, "POST", "/api/data/views/beacon", { "content-type": "text/plain", "transfer-encoding": "chunked" }, "x".repeat(64 * 1024));
    assert.equal(endless.status, 413);
    // GET and others: 405. A preflight: open to every origin.
    assert.equal((await fetch(`${BASE}/api/data/views/beacon`)).status, 405);
    const preflight = await fetch(`${BASE}/api/data/views/beacon`, {
      method: "OPTIONS",
      headers: { origin: "https://blog.example", "access-control-request-method": "POST" },
    });
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");

    // A view's beacons cannot be taken over by another viewer or moved to other content, nor claim more time than has passed.
    const mine = await view(stream.playbackId, { playedMs: 5000, ttffMs: 300, ended: false });
    assert.equal((await beacon({ ...mine, viewerId: randomUUID(), playedMs: 100_000 })).status, 204);
    assert.equal((await beacon({ ...mine, playedMs: 7 * 24 * 3600 * 1000 })).status, 204);
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    // Rolled up with the week's claim: capped at the time since the view began plus a minute.
    const rows = await until(
      "the view rolled up",
      async () => (await sdk.metrics.getViewership({ playbackId: stream.playbackId })).data?.find((r) => r.playtimeMins > 0.9),
      60_000,
      500,
    );
    assert.equal(rows.viewCount, 1, "the malformed beacons stored nothing: one view, the good one");
    assert.ok(rows.playtimeMins < 2, `a claim of a week's watching is capped by the time since the view began: ${rows.playtimeMins} min`);
  });
});
