import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { test } from "node:test";
import { backgroundDb } from "@/db/client";
import { progressMarks, views } from "@/db/schema";
import { viewership } from "@/lib/analytics/query";
import { DAY_MS, HOUR_MS, TTFF_BUCKETS_MS, rollUp } from "@/lib/analytics/rollup";
import { Beacon } from "@/lib/analytics/schema";
import { ViewWriter } from "@/lib/analytics/writer";
import { newPlaybackId } from "@/lib/ids";
import { createUser } from "@/lib/users/service";
import { db } from "../support/db";

/** Until a roll-up of this process's has run (another instance's may hold the lock a moment). */
async function rolledUp() {
  const deadline = Date.now() + 60_000;
  while ((await rollUp()) === undefined) {
    if (Date.now() > deadline) throw new Error("no roll-up could take the lock within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A beacon of a view, as the collection endpoint hands it to the writer (the audience fixed), received at `at`. */
const beacon = (fields: Partial<Beacon> & Pick<Beacon, "playbackId" | "viewId" | "viewerId">, owner: { userId: string; contentId: string }, at: number) => ({
  beacon: Beacon.parse({ event: "heartbeat", ...fields }),
  ...owner,
  browser: "Chrome",
  browserEngine: "Blink",
  os: "Linux",
  deviceType: "desktop",
  device: "desktop",
  country: "FR",
  continent: "EU",
  at,
});

/** Views' own sums per playback id over [from, to) (by the hour each began, as the roll-ups count them). */
async function fromViews(userId: string, from: number, to: number) {
  const rows = await db().$client<{ playback_id: string; views: number; played: number }[]>`
    SELECT playback_id, count(*)::int AS views, sum(played_ms)::float8 AS played FROM views
    WHERE user_id = ${userId} AND started_at >= ${Math.floor(from / HOUR_MS) * HOUR_MS} AND started_at < ${to} GROUP BY playback_id`;
  return Object.fromEntries(rows.map((r) => [r.playback_id, [r.views, r.played / 60_000]]));
}

const byPlayback = (rows: { playbackId?: string; viewCount: number; playtimeMins: number }[]) => {
  const sums: Record<string, [number, number]> = {};
  for (const r of rows) {
    const s = (sums[r.playbackId!] ??= [0, 0]);
    s[0] += r.viewCount;
    s[1] += r.playtimeMins;
  }
  return sums;
};

/**
 * The days of view_days_by_playback are the hours of view_hours_by_playback summed, and stay so
 * as late beacons change old views; a range by playback id over several days (read from the days
 * and the hours at its ends) answers what the views themselves say, and what the hours summed say.
 */
test("a range by playback id over days is read from the daily roll-up, kept equal to the hours as views change", async () => {
  const user = await createUser({ email: `view-rollups-${Date.now()}@example.com` });
  const playbackIds = [newPlaybackId(), newPlaybackId()];
  const now = Date.now();
  // Views every 5 hours over the last 4 days, on both playback ids; every one seen just now (the next roll-up looks at it).
  const rows = Array.from({ length: 20 }, (_, i) => ({
    id: randomUUID(),
    playbackId: playbackIds[i % 2],
    userId: user.id,
    contentId: `content-${i % 2}`,
    viewerId: randomUUID(),
    startedAt: now - i * 5 * HOUR_MS - 60_000,
    seenAt: now,
    browser: i % 3 ? "Chrome" : "Firefox",
    country: "FR",
    continent: "EU",
    ttffMs: 300 + i * 10,
    playedMs: 60_000 * (i + 1),
  }));
  // As the roll-up before view_deltas left a database: views written without their changes, and
  // its mark (a run an hour ago). The next run recounts the hours of the views seen since.
  await db().insert(views).values(rows);
  await db()
    .insert(progressMarks)
    .values({ name: "view-rollup", upto: now - HOUR_MS })
    .onConflictDoUpdate({ target: progressMarks.name, set: { upto: now - HOUR_MS } });
  await rolledUp();

  const daysEqualHours = async () => {
    const [diff] = await db().$client<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (
        SELECT hour - hour % ${DAY_MS} AS day, playback_id, sum(views)::int AS views, sum(played_ms)::float8 AS played, sum(ttff_sum_ms)::float8 AS ttff
        FROM view_hours_by_playback WHERE user_id = ${user.id} GROUP BY 1, 2
      ) h FULL JOIN (
        SELECT day, playback_id, views, played_ms::float8 AS played, ttff_sum_ms::float8 AS ttff FROM view_days_by_playback WHERE user_id = ${user.id}
      ) d USING (day, playback_id)
      WHERE h.views IS DISTINCT FROM d.views OR h.played IS DISTINCT FROM d.played OR h.ttff IS DISTINCT FROM d.ttff`;
    assert.equal(diff.n, 0, "every day's row is its hours summed");
    // The hours per playback id, and the account's by dimension, are view_hours summed too.
    const [totals] = await db().$client<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (
        SELECT hour, playback_id, sum(views)::int AS views, sum(played_ms)::float8 AS played FROM view_hours WHERE user_id = ${user.id} GROUP BY 1, 2
      ) h FULL JOIN (
        SELECT hour, playback_id, views, played_ms::float8 AS played FROM view_hours_by_playback WHERE user_id = ${user.id}
      ) p USING (hour, playback_id)
      WHERE h.views IS DISTINCT FROM p.views OR h.played IS DISTINCT FROM p.played`;
    assert.equal(totals.n, 0, "every hour's total per playback id is its rows summed");
    const [byBrowser] = await db().$client<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (
        SELECT hour, browser AS value, sum(views)::int AS views, sum(played_ms)::float8 AS played FROM view_hours WHERE user_id = ${user.id} GROUP BY 1, 2
      ) h FULL JOIN (
        SELECT hour, value, views, played_ms::float8 AS played FROM view_hours_by_account WHERE user_id = ${user.id} AND dimension = 'browser'
      ) a USING (hour, value)
      WHERE h.views IS DISTINCT FROM a.views OR h.played IS DISTINCT FROM a.played`;
    assert.equal(byBrowser.n, 0, "the account's hours by browser are view_hours summed");
  };
  await daysEqualHours();
  const [{ days }] = await db().$client<{ days: number }[]>`SELECT count(*)::int AS days FROM view_days_by_playback WHERE user_id = ${user.id}`;
  assert.ok(days >= 8, `a row per day and playback id: ${days}`);

  // A range starting mid-day 3.5 days ago: the first day's later hours, whole days, today's hours.
  const from = now - 3.5 * DAY_MS;
  const whole = await viewership(user.id, { from, to: now + 1, breakdownBy: ["playbackId"] }, false);
  assert.deepEqual(byPlayback(whole), await fromViews(user.id, from, now + 1));
  const hourly = await viewership(user.id, { from, to: now + 1, breakdownBy: ["playbackId"], timeStep: "hour" }, false);
  assert.deepEqual(byPlayback(hourly), byPlayback(whole), "by the hour, summed: the same");
  const daily = await viewership(user.id, { from, to: now + 1, breakdownBy: ["playbackId"], timeStep: "day" }, true);
  assert.ok(daily.every((r) => r.timestamp! % DAY_MS === 0));
  assert.deepEqual(byPlayback(daily), byPlayback(whole), "by the day, summed: the same");

  // Late beacons, through the writer, raise an old view (3 days ago) and a new one; the days follow.
  const old = rows[15];
  const writer = new ViewWriter();
  await Promise.all(
    [old, rows[0]].map((r) =>
      writer.write(beacon({ playbackId: r.playbackId, viewId: r.id, viewerId: r.viewerId, playedMs: r.playedMs + 600_000 }, r, Date.now())),
    ),
  );
  await rolledUp();
  await daysEqualHours();
  const after = await viewership(user.id, { breakdownBy: ["playbackId"] }, false);
  assert.deepEqual(byPlayback(after), await fromViews(user.id, 0, now + 1), "all time, from the days");
  const oldDay = Math.floor(old.startedAt / DAY_MS) * DAY_MS;
  const [day] = await db().$client<{ played: number }[]>`
    SELECT played_ms::float8 AS played FROM view_days_by_playback WHERE playback_id = ${old.playbackId} AND day = ${oldDay}`;
  const [want] = await db().$client<{ played: number }[]>`
    SELECT sum(played_ms)::float8 AS played FROM views WHERE playback_id = ${old.playbackId} AND started_at >= ${oldDay} AND started_at < ${oldDay + DAY_MS}`;
  assert.equal(day.played, want.played, "the old view's day has its 10 more minutes");
  await rollupsEqualViews(user.id);
});

/** Every sum of the roll-ups for a user, per hour and playback id, against the views' own (worked out here from their rows). */
async function rollupsEqualViews(userId: string) {
  const mine = await db().$client<
    { started_at: number; playback_id: string; played_ms: number; ttff_ms: number | null; rebuffer_ms: number; error_count: number; ended: boolean }[]
  >`
    SELECT started_at::float8 AS started_at, playback_id, played_ms::float8 AS played_ms, ttff_ms, rebuffer_ms::float8 AS rebuffer_ms, error_count, ended
    FROM views WHERE user_id = ${userId}`;
  const want: Record<string, number[]> = {};
  for (const v of mine) {
    const key = `${Math.floor(v.started_at / HOUR_MS) * HOUR_MS} ${v.playback_id}`;
    const s = (want[key] ??= Array(8 + TTFF_BUCKETS_MS.length + 1).fill(0));
    s[0] += 1;
    s[1] += v.played_ms;
    if (v.ttff_ms !== null) {
      s[2] += 1;
      s[3] += v.ttff_ms;
      s[8 + TTFF_BUCKETS_MS.filter((b) => b <= v.ttff_ms!).length] += 1;
    }
    s[4] += v.rebuffer_ms;
    s[5] += v.error_count > 0 ? 1 : 0;
    s[6] += v.ended && v.ttff_ms === null ? 1 : 0;
  }
  const rows = await db().$client<{ hour: number; playback_id: string; s: number[]; h: number[] }[]>`
    SELECT hour::float8 AS hour, playback_id,
      ARRAY[sum(views), sum(played_ms), sum(ttff_count), sum(ttff_sum_ms), sum(rebuffer_ms), sum(errored), sum(exits_before_start), 0]::float8[] AS s,
      ARRAY[${db().$client.unsafe(
        TTFF_BUCKETS_MS.concat(0)
          .map((_, i) => `sum(ttff_histogram[${i + 1}])`)
          .join(", "),
      )}]::float8[] AS h
    FROM view_hours WHERE user_id = ${userId} GROUP BY hour, playback_id`;
  const got = Object.fromEntries(rows.map((r) => [`${r.hour} ${r.playback_id}`, [...r.s, ...r.h]]));
  assert.deepEqual(got, want, "view_hours summed per hour and playback id: the views' own sums (views, played, TTFFs, rebuffering, errors, exits, histogram)");
}

/**
 * Views written by the beacon writer are counted from the changes it records: a view's start,
 * first frame, heartbeats, rebuffering, error and exit each add what they changed, a late or
 * repeated beacon nothing; and two instances writing the same new views at once (their beacons
 * sent to both) count each view once.
 */
test("the roll-ups add up the changes the writer records: each view once, whatever the order and the writers", async () => {
  const user = await createUser({ email: `view-deltas-${Date.now()}@example.com` });
  const owner = { userId: user.id, contentId: "content-deltas" };
  const playbackId = newPlaybackId();
  const [a, b] = [new ViewWriter(), new ViewWriter()];
  const t0 = Date.now() - 10 * 60_000;
  const ids = Array.from({ length: 40 }, () => ({ playbackId, viewId: randomUUID(), viewerId: randomUUID() }));
  // Each view's first beacon sent to both instances at once.
  await Promise.all(ids.flatMap((v) => [a.write(beacon({ ...v, event: "start" }, owner, t0)), b.write(beacon({ ...v, event: "start" }, owner, t0 + 5))]));
  // Then their lives: most play (a first frame, heartbeats, some rebuffer or fail), some leave before a frame.
  for (let step = 1; step <= 4; step++) {
    await Promise.all(
      ids.map((v, i) => {
        const leftEarly = i % 10 === 0;
        const fields: Partial<Beacon> = leftEarly
          ? { event: "exit", ended: step === 4 }
          : {
              playedMs: step * 10_000,
              ttffMs: 150 + i * 97,
              rebufferCount: i % 4 === 0 ? step : 0,
              rebufferMs: i % 4 === 0 ? step * 300 : 0,
              errorCount: i % 7 === 0 && step >= 3 ? 1 : 0,
              ended: step === 4 && i % 3 === 0,
            };
        const writer = (i + step) % 2 ? a : b;
        return writer.write(beacon({ ...v, ...fields }, owner, t0 + step * 10_000));
      }),
    );
    if (step === 2) await rolledUp();
  }
  // A late beacon (lower totals) and a repeated one change nothing.
  await a.write(beacon({ ...ids[1], playedMs: 5_000, ttffMs: 150 + 97 }, owner, t0 + 20_000));
  await b.write(beacon({ ...ids[2], playedMs: 40_000, ttffMs: 150 + 2 * 97, ended: true }, owner, t0 + 40_000));
  await rolledUp();
  const [{ n }] = await db().$client<{ n: number }[]>`SELECT count(*)::int AS n FROM views WHERE user_id = ${user.id}`;
  assert.equal(n, 40);
  await rollupsEqualViews(user.id);
  const [total] = await viewership(user.id, {}, true);
  assert.equal(total.viewCount, 40, "each view once");
  assert.equal(total.exitsBeforeStart, 4, "the views that left before a first frame");
});

test("the roll-up runs on a connection of its own, whose server process (the embedded PostgreSQL's, on this machine) yields the CPU to the beacons' writes", async () => {
  await rollUp();
  const [own] = await db().$client<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = 'castline background'`;
  assert.ok(own, "the roll-up's connection names itself");
  assert.equal(os.getPriority(own.pid), 10, "its server process runs at niceness 10");
  const [pool] = await db().$client<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  assert.equal(os.getPriority(pool.pid), 0, "the pool's at the normal priority");
  const [{ setting }] = await db().$client<{ setting: string }[]>`SELECT setting FROM pg_settings WHERE name = 'synchronous_commit'`;
  assert.equal(setting, "on", "the pool's commits wait for the disk");
  const [background] = await backgroundDb()<{ synchronous_commit: string }[]>`SHOW synchronous_commit`;
  assert.equal(background.synchronous_commit, "off", "the roll-up's do not (a crash undoes its last transactions whole)");
});
