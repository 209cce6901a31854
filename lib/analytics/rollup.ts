import type { ReservedSql } from "postgres";
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

/** (hour, playback id) pairs per transaction of an incremental run: each a fraction of a second of PostgreSQL at most. */
const CHUNK_PAIRS = 250;
/**
 * After each transaction an incremental run waits this many times as long as it took: a run
 * takes at most half of a core, however much changed, and the beacons' commits (each a player
 * waiting) never queue behind a long burst of it.
 */
const PAUSE_PER_BUSY = 1;

const LOCK = "hashtextextended('castline:view-rollup', 0)";
const dims = ROLLED_UP.join(", ");
const vDims = ROLLED_UP.map((d) => `v.${d}`).join(", ");
const sums = `count(*) AS views, sum(v.played_ms) AS played_ms, count(v.ttff_ms) AS ttff_count, coalesce(sum(v.ttff_ms), 0) AS ttff_sum_ms,
  ${histogram} AS ttff_histogram, sum(v.rebuffer_ms) AS rebuffer_ms, count(*) FILTER (WHERE v.error_count > 0) AS errored,
  count(*) FILTER (WHERE v.ended AND v.ttff_ms IS NULL) AS exits_before_start`;
/** Grouping sets: each hour's rows per dimension and their total (`total`), in one pass. */
const sets = (hour: string) => `GROUPING SETS ((${hour}v.playback_id, v.user_id, v.content_id, ${vDims}), (${hour}v.playback_id, v.user_id, v.content_id))`;
const hourOf = `(v.started_at / ${HOUR_MS}) * ${HOUR_MS}`;

/**
 * The statement that rewrites hours (per playback id): `touched` a query of (hour, playback_id)
 * pairs, `rolled` the new rows of those hours (a column `total` telling a pair's total from its
 * rows by dimension). Answers the view_hours rows written.
 */
const rewrite = (touched: string, rolled: string) =>
  `WITH touched AS (
    ${touched}
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
  SELECT count(*)::int AS rows FROM by_dimension`;

/**
 * A pair's hour recomputed from its views: the LATERAL subquery, with a GROUP BY of its own, runs
 * once per pair (an index range scan on views (playback_id, started_at)); as a join, the planner
 * may scan every view for a few hours.
 */
const byPair = `SELECT t.hour, r.* FROM touched t CROSS JOIN LATERAL (
  SELECT v.playback_id, v.user_id, v.content_id, ${vDims}, GROUPING(${vDims}) <> 0 AS total, ${sums}
  FROM views v WHERE v.playback_id = t.playback_id AND v.started_at >= t.hour AND v.started_at < t.hour + ${HOUR_MS}
  GROUP BY ${sets("")}
) r`;

/** The pairs of a chunk: two array parameters. */
const CHUNK_STATEMENT = rewrite("SELECT * FROM unnest($1::bigint[], $2::text[]) AS t(hour, playback_id)", byPair);
/**
 * The first run (no mark): every view is new to it, grouped in one pass over the table (an index
 * scan per hour and playback id would cost several times more), in one transaction.
 */
const FIRST_STATEMENT = rewrite(
  `SELECT DISTINCT (started_at / ${HOUR_MS}) * ${HOUR_MS} AS hour, playback_id FROM views`,
  `SELECT ${hourOf} AS hour, v.playback_id, v.user_id, v.content_id, ${vDims}, GROUPING(${vDims}) <> 0 AS total, ${sums}
   FROM views v GROUP BY ${sets(`${hourOf}, `)}`,
);

/**
 * Rewrites the hours (per playback id) whose views changed since the last run, from the views
 * themselves: a view counts in the hour it began, with everything its beacons said since. It is a
 * whole recomputation of each such hour, so running twice, or after a crash mid-way, is harmless.
 * Each hour and playback id is read by the index on (playback_id, started_at), so a run costs the
 * views of the hours that changed, not the table's size. The same statement writes each such
 * hour's totals per playback id (view_hours_by_playback), and changes the accounts' hours by
 * dimension (view_hours_by_account) and the playback ids' days (view_days_by_playback) by the
 * difference between the rows it writes and those it replaces: they stay sums of the hours,
 * without reading the hours' other playback ids or the days' other hours.
 *
 * The changed hours go CHUNK_PAIRS at a time, each chunk a transaction, with a pause after each
 * (`paced`, PAUSE_PER_BUSY); the mark moves once all are done (a run cut short is redone whole,
 * harmlessly). One instance at a time (a session advisory lock on a connection of its own, freed
 * if the process dies); returns the roll-up rows rewritten (view_hours'), or undefined when
 * another instance holds the lock.
 */
export async function rollUp(now = Date.now(), { paced = true } = {}): Promise<number | undefined> {
  const sql = await db().$client.reserve();
  try {
    const [{ locked }] = await sql<{ locked: boolean }[]>`SELECT pg_try_advisory_lock(${sql.unsafe(LOCK)}) AS locked`;
    if (!locked) return undefined;
    try {
      const [mark] = await sql<{ upto: number }[]>`SELECT upto::float8 AS upto FROM progress_marks WHERE name = 'view-rollup'`;
      let rows = 0;
      if (!mark) rows = await inTransaction(sql, () => sql.unsafe<{ rows: number }[]>(FIRST_STATEMENT).then(([r]) => r.rows));
      else {
        // bigint hours come back as strings, and go back as such.
        const touched = await sql<{ hour: string; playback_id: string }[]>`
          SELECT DISTINCT (started_at / ${HOUR_MS}) * ${HOUR_MS} AS hour, playback_id FROM views WHERE seen_at > ${mark.upto - OVERLAP_MS}`;
        for (let i = 0; i < touched.length; i += CHUNK_PAIRS) {
          const chunk = touched.slice(i, i + CHUNK_PAIRS);
          const started = performance.now();
          const [r] = await inTransaction(sql, () =>
            sql.unsafe<{ rows: number }[]>(CHUNK_STATEMENT, [chunk.map((p) => p.hour), chunk.map((p) => p.playback_id)] as never[]),
          );
          rows += r.rows;
          if (paced && i + CHUNK_PAIRS < touched.length) await new Promise((r) => setTimeout(r, (performance.now() - started) * PAUSE_PER_BUSY));
        }
      }
      await sql`INSERT INTO progress_marks (name, upto) VALUES ('view-rollup', ${now}) ON CONFLICT (name) DO UPDATE SET upto = excluded.upto`;
      // Views past their retention go (their hours stay rolled up).
      const keepFrom = now - config().VIEW_RETENTION_DAYS * 24 * HOUR_MS;
      await sql`DELETE FROM views WHERE id IN (SELECT id FROM views WHERE started_at < ${keepFrom} LIMIT ${EXPIRE_BATCH})`;
      return rows;
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.unsafe(LOCK)})`;
    }
  } finally {
    sql.release();
  }
}

/** `work` between BEGIN and COMMIT on the reserved connection (ROLLBACK if it fails). */
async function inTransaction<T>(sql: ReservedSql, work: () => Promise<T>): Promise<T> {
  await sql`BEGIN`;
  try {
    const result = await work();
    await sql`COMMIT`;
    return result;
  } catch (err) {
    await sql`ROLLBACK`.catch(() => {});
    throw err;
  }
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
