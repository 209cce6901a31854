import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { views } from "@/db/schema";
import { viewership } from "@/lib/analytics/query";
import { DAY_MS, HOUR_MS, rollUp } from "@/lib/analytics/rollup";
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
  await db().insert(views).values(rows);
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

  // Late beacons raise an old view (3 days ago) and a new one; the days follow.
  const old = rows[15];
  await db().$client`UPDATE views SET played_ms = played_ms + 600000, seen_at = ${Date.now()} WHERE id IN ${db().$client([old.id, rows[0].id])}`;
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
});
