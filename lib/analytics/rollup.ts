import { db } from "@/db/client";
import { config } from "@/lib/config";

/** The roll-ups' step. */
export const HOUR_MS = 3_600_000;
/** Time to first frame histogram: bucket i holds [TTFF_BUCKETS_MS[i-1], TTFF_BUCKETS_MS[i]) ms, the first from 0, the last on. */
export const TTFF_BUCKETS_MS = [100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000];
/** Views seen this long before the last run's end are looked at again: a beacon received before then may have committed after. */
const OVERLAP_MS = 15_000;
/** Views past their retention deleted per run, so that no run holds locks for long. */
const EXPIRE_BATCH = 10_000;

/** The dimensions the roll-ups keep, as columns of both tables. */
export const ROLLED_UP = ["browser", "browser_engine", "os", "device_type", "device", "country", "continent", "timezone"] as const;

const histogram = `ARRAY[${[0, ...TTFF_BUCKETS_MS.map((_, i) => i + 1)]
  .map((i) => `count(*) FILTER (WHERE width_bucket(v.ttff_ms, ARRAY[${TTFF_BUCKETS_MS.join(",")}]) = ${i})`)
  .join(", ")}]::int[]`;

/**
 * Rewrites the hours (per playback id) whose views changed since the last run, from the views
 * themselves: a view counts in the hour it began, with everything its beacons said since. It is a
 * whole recomputation of each such hour, so running twice, or after a crash mid-way, is harmless.
 * One instance at a time (an advisory lock); returns the hours rewritten, or undefined when
 * another instance holds the lock.
 */
export async function rollUp(now = Date.now()): Promise<number | undefined> {
  return db().$client.begin(async (sql) => {
    const [{ locked }] = await sql<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtextextended('castline:view-rollup', 0)) AS locked`;
    if (!locked) return undefined;
    const [mark] = await sql<{ upto: number }[]>`SELECT upto::float8 AS upto FROM progress_marks WHERE name = 'view-rollup'`;
    const since = (mark?.upto ?? 0) - OVERLAP_MS;
    const dims = ROLLED_UP.map((d) => `v.${d}`).join(", ");
    const rewritten = await sql.unsafe(
      `WITH touched AS (
         SELECT DISTINCT (started_at / ${HOUR_MS}) * ${HOUR_MS} AS hour, playback_id FROM views WHERE seen_at > $1
       ), cleared AS (
         DELETE FROM view_hours h USING touched t WHERE h.hour = t.hour AND h.playback_id = t.playback_id
       )
       INSERT INTO view_hours (hour, playback_id, user_id, content_id, ${ROLLED_UP.join(", ")},
         views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start)
       SELECT t.hour, v.playback_id, v.user_id, v.content_id, ${dims},
         count(*), sum(v.played_ms), count(v.ttff_ms), coalesce(sum(v.ttff_ms), 0), ${histogram}, sum(v.rebuffer_ms),
         count(*) FILTER (WHERE v.error_count > 0), count(*) FILTER (WHERE v.ended AND v.ttff_ms IS NULL)
       FROM touched t JOIN views v ON v.playback_id = t.playback_id AND v.started_at >= t.hour AND v.started_at < t.hour + ${HOUR_MS}
       GROUP BY t.hour, v.playback_id, v.user_id, v.content_id, ${dims}
       RETURNING 1`,
      [since],
    );
    await sql`INSERT INTO progress_marks (name, upto) VALUES ('view-rollup', ${now}) ON CONFLICT (name) DO UPDATE SET upto = excluded.upto`;
    // Views past their retention go (their hours stay rolled up).
    const keepFrom = now - config().VIEW_RETENTION_DAYS * 24 * HOUR_MS;
    await sql`DELETE FROM views WHERE id IN (SELECT id FROM views WHERE started_at < ${keepFrom} LIMIT ${EXPIRE_BATCH})`;
    return rewritten.length;
  });
}

/** Rolls up every VIEW_ROLLUP_EVERY_S on this instance (another holding the lock skips it); returns the stop function, which waits for a run under way. */
export function startRollups(): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => rollUp().catch((err) => console.error("[analytics] roll-up failed:", (err as Error).message)));
  }, config().VIEW_ROLLUP_EVERY_S * 1000).unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
