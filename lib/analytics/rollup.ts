import { db } from "@/db/client";
import { config } from "@/lib/config";
import { appMetrics } from "@/lib/metrics";

/** The roll-ups' step. */
export const HOUR_MS = 3_600_000;
/** view_days_by_playback's step (days in UTC: whole multiples of it since the epoch). */
export const DAY_MS = 24 * HOUR_MS;
/** Time to first frame histogram: bucket i holds [TTFF_BUCKETS_MS[i-1], TTFF_BUCKETS_MS[i]) ms, the first from 0, the last on. */
export const TTFF_BUCKETS_MS = [100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000];
/** Views seen this long before the last run's end are looked at again: a beacon received before then may have committed after. */
const OVERLAP_MS = 15_000;
/** Views past their retention deleted per run, so that no run holds locks for long. */
const EXPIRE_BATCH = 10_000;

/** The dimensions the roll-ups keep, as columns of the views and of view_hours and view_hours_by_account. */
export const ROLLED_UP = ["browser", "browser_engine", "os", "device_type", "device", "country", "continent", "timezone"] as const;

const histogram = `ARRAY[${[0, ...TTFF_BUCKETS_MS.map((_, i) => i + 1)]
  .map((i) => `count(*) FILTER (WHERE width_bucket(v.ttff_ms, ARRAY[${TTFF_BUCKETS_MS.join(",")}]) = ${i})`)
  .join(", ")}]::int[]`;

/** The roll-ups' TTFF histograms (a column ttff_histogram) added bucket by bucket. */
export const summedHistogram = `ARRAY[${[0, ...TTFF_BUCKETS_MS].map((_, i) => `sum(ttff_histogram[${i + 1}])`).join(", ")}]::int[]`;

/** The roll-ups' columns of sums, in the order the statement below writes them. */
export const METRICS = "views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start";
/** Sums of roll-up rows, as METRICS, each row counted `sign` times (1: added, -1: taken away). */
const signedSums = METRICS.split(", ")
  .map((m) =>
    m === "ttff_histogram"
      ? `ARRAY[${[0, ...TTFF_BUCKETS_MS].map((_, i) => `sum(sign * ttff_histogram[${i + 1}])`).join(", ")}]::int[] AS ttff_histogram`
      : `sum(sign * ${m}) AS ${m}`,
  )
  .join(", ");
/** METRICS as columns of the table or subquery `alias`. */
const prefixed = (alias: string) =>
  METRICS.split(", ")
    .map((m) => `${alias}.${m}`)
    .join(", ");

/**
 * Rewrites the hours (per playback id) whose views changed since the last run, from the views
 * themselves: a view counts in the hour it began, with everything its beacons said since. It is a
 * whole recomputation of each such hour, so running twice, or after a crash mid-way, is harmless.
 * Each hour and playback id is read by the index on (playback_id, started_at), so a run costs the
 * views of the hours that changed, not the table's size. The same statement writes each such
 * hour's totals per playback id (view_hours_by_playback), and changes the accounts' hours by
 * dimension (view_hours_by_account) and the playback ids' days (view_days_by_playback) by the
 * difference between the rows it writes and those it replaces: they stay sums of the hours,
 * without reading the hours' other playback ids or the days' other hours. One instance at a time (an advisory lock); returns the roll-up rows rewritten
 * (view_hours'), or undefined when another instance holds the lock.
 */
export async function rollUp(now = Date.now()): Promise<number | undefined> {
  return db().$client.begin(async (sql) => {
    const [{ locked }] = await sql<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtextextended('castline:view-rollup', 0)) AS locked`;
    if (!locked) return undefined;
    const [mark] = await sql<{ upto: number }[]>`SELECT upto::float8 AS upto FROM progress_marks WHERE name = 'view-rollup'`;
    const since = (mark?.upto ?? 0) - OVERLAP_MS;
    const dims = ROLLED_UP.join(", ");
    const vDims = ROLLED_UP.map((d) => `v.${d}`).join(", ");
    const sums = `count(*) AS views, sum(v.played_ms) AS played_ms, count(v.ttff_ms) AS ttff_count, coalesce(sum(v.ttff_ms), 0) AS ttff_sum_ms,
      ${histogram} AS ttff_histogram, sum(v.rebuffer_ms) AS rebuffer_ms, count(*) FILTER (WHERE v.error_count > 0) AS errored,
      count(*) FILTER (WHERE v.ended AND v.ttff_ms IS NULL) AS exits_before_start`;
    // Grouping sets: each hour's rows per dimension and their total (`total`), in one pass.
    const sets = (hour: string) => `GROUPING SETS ((${hour}v.playback_id, v.user_id, v.content_id, ${vDims}), (${hour}v.playback_id, v.user_id, v.content_id))`;
    const hourOf = `(v.started_at / ${HOUR_MS}) * ${HOUR_MS}`;
    const rolled = mark
      ? // The LATERAL subquery, with a GROUP BY of its own, runs once per touched hour and playback
        // id (an index range scan): as a join, the planner may scan every view for a few hours.
        `SELECT t.hour, r.* FROM touched t CROSS JOIN LATERAL (
           SELECT v.playback_id, v.user_id, v.content_id, ${vDims}, GROUPING(${vDims}) <> 0 AS total, ${sums}
           FROM views v WHERE v.playback_id = t.playback_id AND v.started_at >= t.hour AND v.started_at < t.hour + ${HOUR_MS}
           GROUP BY ${sets("")}
         ) r`
      : // The first run (no mark): every view is new to it, grouped in one pass over the table
        // (an index scan per hour and playback id would cost several times more).
        `SELECT ${hourOf} AS hour, v.playback_id, v.user_id, v.content_id, ${vDims}, GROUPING(${vDims}) <> 0 AS total, ${sums}
         FROM views v GROUP BY ${sets(`${hourOf}, `)}`;
    const [{ rows }] = await sql.unsafe<{ rows: number }[]>(
      `WITH touched AS (
         SELECT DISTINCT (started_at / ${HOUR_MS}) * ${HOUR_MS} AS hour, playback_id FROM views WHERE seen_at > $1
       ), replaced AS (
         DELETE FROM view_hours h USING touched t WHERE h.hour = t.hour AND h.playback_id = t.playback_id RETURNING h.*
       ), replaced_totals AS (
         DELETE FROM view_hours_by_playback h USING touched t WHERE h.hour = t.hour AND h.playback_id = t.playback_id RETURNING h.*
       ), rolled AS (
         ${rolled}
       ), by_dimension AS (
         INSERT INTO view_hours (hour, playback_id, user_id, content_id, ${dims}, ${METRICS})
         SELECT hour, playback_id, user_id, content_id, ${dims}, ${METRICS} FROM rolled WHERE NOT total
         RETURNING 1
       ), totals AS (
         INSERT INTO view_hours_by_playback (hour, playback_id, user_id, content_id, ${METRICS})
         SELECT hour, playback_id, user_id, content_id, ${METRICS} FROM rolled WHERE total
       ), day_changes AS (
         SELECT hour - hour % ${DAY_MS} AS day, playback_id, user_id, content_id, 1 AS sign, ${METRICS} FROM rolled WHERE total
         UNION ALL
         SELECT hour - hour % ${DAY_MS}, playback_id, user_id, content_id, -1, ${METRICS} FROM replaced_totals
       ), day_net AS (
         SELECT day, playback_id, user_id, content_id, 1 AS sign, ${signedSums} FROM day_changes GROUP BY day, playback_id, user_id, content_id
       ), days_before AS (
         DELETE FROM view_days_by_playback d USING (SELECT DISTINCT day, playback_id FROM day_net) c WHERE d.day = c.day AND d.playback_id = c.playback_id
         RETURNING d.day, d.playback_id, d.user_id, d.content_id, 1 AS sign, ${prefixed("d")}
       ), by_day AS (
         -- Aggregated: every row of days_before is read (and deleted) before the first is inserted.
         INSERT INTO view_days_by_playback (day, playback_id, user_id, content_id, ${METRICS})
         SELECT day, playback_id, user_id, content_id, ${signedSums} FROM (SELECT * FROM days_before UNION ALL SELECT * FROM day_net) c
         GROUP BY day, playback_id, user_id, content_id HAVING sum(sign * views) <> 0
       ), changes AS (
         SELECT hour, user_id, ${dims}, 1 AS sign, ${METRICS} FROM rolled WHERE NOT total
         UNION ALL
         SELECT hour, user_id, ${dims}, -1 AS sign, ${METRICS} FROM replaced
       ), net AS (
         SELECT hour, user_id, ${dims}, 1 AS sign, ${signedSums} FROM changes GROUP BY hour, user_id, ${dims}
       ), before AS (
         DELETE FROM view_hours_by_account a USING (SELECT DISTINCT hour, user_id FROM net) c WHERE a.hour = c.hour AND a.user_id = c.user_id
         RETURNING a.hour, a.user_id, a.dimension, a.value, 1 AS sign, ${prefixed("a")}
       ), by_account AS (
         INSERT INTO view_hours_by_account (hour, user_id, dimension, value, ${METRICS})
         SELECT hour, user_id, dimension, value, ${signedSums} FROM (
           SELECT * FROM before
           UNION ALL
           SELECT n.hour, n.user_id, d.dimension, d.value, n.sign, ${prefixed("n")}
           FROM net n CROSS JOIN LATERAL (VALUES ('', ''), ${ROLLED_UP.map((d) => `('${d}', n.${d})`).join(", ")}) AS d(dimension, value)
         ) c
         GROUP BY hour, user_id, dimension, value HAVING sum(sign * views) <> 0
       )
       SELECT count(*)::int AS rows FROM by_dimension`,
      [since],
    );
    await sql`INSERT INTO progress_marks (name, upto) VALUES ('view-rollup', ${now}) ON CONFLICT (name) DO UPDATE SET upto = excluded.upto`;
    // Views past their retention go (their hours stay rolled up).
    const keepFrom = now - config().VIEW_RETENTION_DAYS * 24 * HOUR_MS;
    await sql`DELETE FROM views WHERE id IN (SELECT id FROM views WHERE started_at < ${keepFrom} LIMIT ${EXPIRE_BATCH})`;
    return rows;
  });
}

/** Rolls up every VIEW_ROLLUP_EVERY_S on this instance (another holding the lock skips it); returns the stop function, which waits for a run under way. */
export function startRollups(): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const run = async () => {
    const started = performance.now();
    try {
      if ((await rollUp()) !== undefined) appMetrics().viewRollups.observe((performance.now() - started) / 1000);
    } catch (err) {
      console.error("[analytics] roll-up failed:", (err as Error).message);
    }
  };
  const timer = setInterval(() => {
    running = running.then(run);
  }, config().VIEW_ROLLUP_EVERY_S * 1000).unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
