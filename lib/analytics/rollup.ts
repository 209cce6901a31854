import type { ReservedSql } from "postgres";
import { backgroundDb, backgroundPriority } from "@/db/client";
import { config } from "@/lib/config";
import { appMetrics } from "@/lib/metrics";

/** The roll-ups' step. */
export const HOUR_MS = 3_600_000;
/** view_days_by_playback's step (days in UTC: whole multiples of it since the epoch). */
export const DAY_MS = 24 * HOUR_MS;
/** Time to first frame histogram: bucket i holds [TTFF_BUCKETS_MS[i-1], TTFF_BUCKETS_MS[i]) ms, the first from 0, the last on. */
export const TTFF_BUCKETS_MS = [100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000];
/** Views past their retention deleted per run, so that no run holds locks for long. */
const EXPIRE_BATCH = 10_000;

/** The dimensions the roll-ups keep, as columns of the views and of view_deltas, view_hours and view_hours_by_account. */
export const ROLLED_UP = ["browser", "browser_engine", "os", "device_type", "device", "country", "continent", "timezone"] as const;

/** The roll-ups' columns of sums, in the order the statements below write them. */
export const METRICS = "views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start";
/** The TTFF histograms' positions (1-based, as PostgreSQL's arrays). */
const BUCKETS = [0, ...TTFF_BUCKETS_MS].map((_, i) => i + 1);
const histogramOf = (cell: (i: number) => string) => `ARRAY[${BUCKETS.map(cell).join(", ")}]::int[]`;

/** The roll-ups' TTFF histograms (a column ttff_histogram) added bucket by bucket (view_deltas': a null one adds nothing). */
export const summedHistogram = histogramOf((i) => `coalesce(sum(ttff_histogram[${i}]), 0)`);
/** METRICS summed over rows. */
const summed = METRICS.split(", ")
  .map((m) => (m === "ttff_histogram" ? `${summedHistogram} AS ttff_histogram` : `sum(${m}) AS ${m}`))
  .join(", ");
/**
 * METRICS summed over view_deltas rows, the histogram null where none of them has one (most
 * changes are a heartbeat's: the sums after this skip the null ones at little cost).
 */
const summedDeltas = METRICS.split(", ")
  .map((m) =>
    m === "ttff_histogram"
      ? `CASE WHEN count(ttff_histogram) > 0 THEN ${histogramOf((i) => `sum(ttff_histogram[${i}])`)} END AS ttff_histogram`
      : `sum(${m}) AS ${m}`,
  )
  .join(", ");
/** METRICS of such sums as a roll-up row (its histogram zeros where null). */
const asRow = METRICS.replace("ttff_histogram", `coalesce(ttff_histogram, ${histogramOf(() => "0")})`);
/** An upsert's SET of METRICS: the row's (table `t`) plus the one it adds. */
const addedTo = (t: string) =>
  METRICS.split(", ")
    .map((m) =>
      m === "ttff_histogram"
        ? `ttff_histogram = ${histogramOf((i) => `${t}.ttff_histogram[${i}] + excluded.ttff_histogram[${i}]`)}`
        : `${m} = ${t}.${m} + excluded.${m}`,
    )
    .join(", ");

const dims = ROLLED_UP.join(", ");
/**
 * view_hours' key for a row's dimensions (columns of `alias`): an MD5 of them, each prefixed by
 * its length (a value holding the separator cannot pass for two).
 */
const combinationOf = (alias: string) => `md5(${ROLLED_UP.map((d) => `length(${alias}.${d}) || ':' || ${alias}.${d}`).join(" || ")})::uuid`;
/** view_deltas' columns, in the order deltaOf gives them. */
export const DELTA_COLUMNS = `hour, playback_id, user_id, content_id, ${dims}, ${METRICS}`;
/** A row of deltaOf's that changes nothing (a heartbeat of a paused player). */
export const NO_CHANGE = "(views, played_ms, ttff_count, rebuffer_ms, errored, exits_before_start) = (0, 0, 0, 0, 0, 0)";

/**
 * The change a write of views row `v` made to the roll-ups, as DELTA_COLUMNS: the row's part of
 * the sums less its part before the write (its prior_* columns, null for a view the write made).
 * `whole`: the row's part whole (a view counted anew).
 */
export function deltaOf(v: string, { whole = false } = {}): string {
  const prior = (column: string, type: string) => (whole ? `NULL::${type}` : `${v}.prior_${column}`);
  const bucket = (ttff: string, i: number) => `coalesce((width_bucket(${ttff}, ARRAY[${TTFF_BUCKETS_MS.join(",")}]) + 1 = ${i})::int, 0)`;
  const priorTtff = prior("ttff_ms", "int");
  return [
    `(${v}.started_at / ${HOUR_MS}) * ${HOUR_MS}`,
    ...["playback_id", "user_id", "content_id", ...ROLLED_UP].map((c) => `${v}.${c}`),
    whole ? "1" : `(${v}.prior_played_ms IS NULL)::int`,
    `${v}.played_ms - coalesce(${prior("played_ms", "bigint")}, 0)`,
    `(${v}.ttff_ms IS NOT NULL)::int - (${priorTtff} IS NOT NULL)::int`,
    `coalesce(${v}.ttff_ms, 0) - coalesce(${priorTtff}, 0)`,
    `CASE WHEN ${v}.ttff_ms IS NOT DISTINCT FROM ${priorTtff} THEN NULL ELSE ${histogramOf((i) => `${bucket(`${v}.ttff_ms`, i)} - ${bucket(priorTtff, i)}`)} END`,
    `${v}.rebuffer_ms - coalesce(${prior("rebuffer_ms", "bigint")}, 0)`,
    `(${v}.error_count > 0)::int - coalesce(${prior("error_count", "int")} > 0, false)::int`,
    `(${v}.ended AND ${v}.ttff_ms IS NULL)::int - coalesce(${prior("ended", "boolean")} AND ${priorTtff} IS NULL, false)::int`,
  ].join(", ");
}

/**
 * Changes applied per transaction: some 50 ms of PostgreSQL each (a core's whole while it runs:
 * short, so that the beacons' commits meanwhile wait little). An unpaced run (a backlog worked
 * off at once) takes ten times as many.
 */
const CHUNK_DELTAS = 2_000;
/**
 * After each transaction a run waits this many times as long as it took: a run takes at most a
 * third of a core, however much changed, and the beacons' commits (each a player waiting) never
 * queue behind a long burst of it.
 */
const PAUSE_PER_BUSY = 2;
/** A run ends after this long (the next goes on): a load past what the roll-up keeps up with holds no lock for ever. */
const RUN_MAX_MS = 30_000;

const LOCK = "hashtextextended('castline:view-rollup', 0)";
/** The time the last run began (progress_marks). */
const LAST_RUN = "view-rollup:last-run";
/** The mark of the roll-up before view_deltas, which recomputed the hours whose views were seen since it. */
const LEGACY_MARK = "view-rollup";

/**
 * Applies $1 changes of view_deltas: removes them, adds them up per hour, playback
 * id and combination of dimensions (and per hour and playback id: GROUPING SETS, one pass), and
 * adds those to the roll-ups' rows (made when new). The owner and content of a playback id never
 * change: taken by min(), they cannot split a key into two rows (one upsert would meet a row twice).
 */
const APPLY = `WITH applied AS (
    DELETE FROM view_deltas WHERE ctid = ANY(ARRAY(SELECT ctid FROM view_deltas LIMIT $1)) RETURNING *
  ), rolled AS (
    SELECT hour, playback_id, min(user_id) AS user_id, min(content_id) AS content_id, ${dims}, GROUPING(${dims}) <> 0 AS total, ${summedDeltas}
    FROM applied GROUP BY GROUPING SETS ((hour, playback_id, ${dims}), (hour, playback_id))
  ), by_dimension AS (
    INSERT INTO view_hours AS t (hour, playback_id, user_id, content_id, combination, ${dims}, ${METRICS})
    SELECT hour, playback_id, user_id, content_id, ${combinationOf("r")}, ${dims}, ${asRow} FROM rolled r WHERE NOT total
    ON CONFLICT (playback_id, hour, combination) DO UPDATE SET ${addedTo("t")}
  ), totals AS (
    INSERT INTO view_hours_by_playback AS t (hour, playback_id, user_id, content_id, ${METRICS})
    SELECT hour, playback_id, user_id, content_id, ${asRow} FROM rolled WHERE total
    ON CONFLICT (playback_id, hour) DO UPDATE SET ${addedTo("t")}
  ), by_day AS (
    INSERT INTO view_days_by_playback AS t (day, playback_id, user_id, content_id, ${METRICS})
    SELECT hour - hour % ${DAY_MS}, playback_id, min(user_id), min(content_id), ${summed} FROM rolled WHERE total GROUP BY 1, playback_id
    ON CONFLICT (playback_id, day) DO UPDATE SET ${addedTo("t")}
  ), by_account AS (
    INSERT INTO view_hours_by_account AS t (hour, user_id, dimension, value, ${METRICS})
    SELECT hour, user_id, CASE ${ROLLED_UP.map((d) => `WHEN GROUPING(${d}) = 0 THEN '${d}'`).join(" ")} ELSE '' END,
      CASE ${ROLLED_UP.map((d) => `WHEN GROUPING(${d}) = 0 THEN ${d}`).join(" ")} ELSE '' END, ${summed}
    FROM rolled WHERE NOT total GROUP BY GROUPING SETS ((hour, user_id), ${ROLLED_UP.map((d) => `(hour, user_id, ${d})`).join(", ")})
    ON CONFLICT (user_id, dimension, hour, value) DO UPDATE SET ${addedTo("t")}
  )
  SELECT count(*)::int AS applied FROM applied`;

/**
 * Once, on a database the roll-up before view_deltas kept (its mark there): the hours (per
 * playback id) whose views were seen since its mark (less 15 s: a beacon received before may
 * have committed after) recounted through view_deltas, as their views less their rows, and the
 * changes already recorded for them removed (their views have them). One statement: one snapshot
 * for the views read and the changes removed. Instances of the version before should be stopped.
 */
const CATCH_UP = `WITH touched AS (
    SELECT DISTINCT (started_at / ${HOUR_MS}) * ${HOUR_MS} AS hour, playback_id FROM views WHERE seen_at > $1
  ), recorded AS (
    DELETE FROM view_deltas d USING touched t WHERE d.hour = t.hour AND d.playback_id = t.playback_id
  )
  INSERT INTO view_deltas (${DELTA_COLUMNS})
  SELECT ${deltaOf("v", { whole: true })} FROM views v JOIN touched t ON v.playback_id = t.playback_id AND (v.started_at / ${HOUR_MS}) * ${HOUR_MS} = t.hour
  UNION ALL
  SELECT h.hour, h.playback_id, h.user_id, h.content_id, ${ROLLED_UP.map((d) => `h.${d}`).join(", ")},
    ${METRICS.split(", ")
      .map((m) => (m === "ttff_histogram" ? histogramOf((i) => `-h.ttff_histogram[${i}]`) : `-h.${m}`))
      .join(", ")}
  FROM view_hours h JOIN touched t ON h.hour = t.hour AND h.playback_id = t.playback_id`;

/**
 * Adds the changes of view_deltas to the roll-ups: the beacon writer records, with each view it
 * writes, the difference it made (deltaOf), and a run adds them up per hour, playback id and
 * combination of dimensions into view_hours, and from there into view_hours_by_playback,
 * view_days_by_playback and view_hours_by_account. A run costs the beacons since the last, not
 * the views of the hours they touched; a view counts in the hour it began, with everything its
 * beacons said since.
 *
 * The changes go CHUNK_DELTAS at a time, each chunk one transaction that removes what it adds
 * (a crash mid-way loses and repeats nothing), with a pause after each (`paced`, PAUSE_PER_BUSY).
 * One instance at a time (a session advisory lock on a connection of its own, freed if the
 * process dies); returns the changes applied, or undefined when another instance holds the lock.
 */
export async function rollUp(now = Date.now(), { paced = true } = {}): Promise<number | undefined> {
  const sql = await backgroundDb().reserve();
  try {
    await backgroundPriority(sql);
    const [{ locked }] = await sql<{ locked: boolean }[]>`SELECT pg_try_advisory_lock(${sql.unsafe(LOCK)}) AS locked`;
    if (!locked) return undefined;
    try {
      const [legacy] = await sql<{ upto: number }[]>`SELECT upto::float8 AS upto FROM progress_marks WHERE name = ${LEGACY_MARK}`;
      if (legacy)
        await inTransaction(sql, async () => {
          await sql.unsafe(CATCH_UP, [legacy.upto - 15_000]);
          await sql`DELETE FROM progress_marks WHERE name = ${LEGACY_MARK}`;
        });
      let applied = 0;
      // A catch-up's changes are applied whole in its run: its rows taken away and put back may be in different chunks.
      for (const began = performance.now(); legacy || performance.now() - began < RUN_MAX_MS; ) {
        const started = performance.now();
        const chunk = paced ? CHUNK_DELTAS : CHUNK_DELTAS * 10;
        const [r] = await inTransaction(sql, () => sql.unsafe<{ applied: number }[]>(APPLY, [chunk]));
        applied += r.applied;
        if (r.applied < chunk) break;
        if (paced) await new Promise((r) => setTimeout(r, (performance.now() - started) * PAUSE_PER_BUSY));
      }
      // The changes removed leave dead rows that each chunk's scan would step over until
      // autovacuum (a minute or more) came by: cleared now, the table's pages kept for the next
      // (a truncation would lock the beacons' inserts out a moment).
      if (applied) await sql`VACUUM (TRUNCATE false) view_deltas`;
      // Only a catch-up takes views away: rows it left with none are no rows.
      if (legacy)
        for (const table of ["view_hours", "view_hours_by_playback", "view_days_by_playback", "view_hours_by_account"])
          await sql.unsafe(`DELETE FROM ${table} WHERE views = 0`);
      await sql`INSERT INTO progress_marks (name, upto) VALUES (${LAST_RUN}, ${now}) ON CONFLICT (name) DO UPDATE SET upto = excluded.upto`;
      // Views past their retention go (their hours stay rolled up).
      const keepFrom = now - config().VIEW_RETENTION_DAYS * DAY_MS;
      await sql`DELETE FROM views WHERE id IN (SELECT id FROM views WHERE started_at < ${keepFrom} LIMIT ${EXPIRE_BATCH})`;
      return applied;
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

/** Rolls up every VIEW_ROLLUP_EVERY_S on this instance (another holding the lock skips it, as does a tick during a run); returns the stop function, which waits for a run under way. */
export function startRollups(): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const run = async () => {
    const started = performance.now();
    try {
      if ((await rollUp()) !== undefined) appMetrics().viewRollups.observe((performance.now() - started) / 1000);
    } catch (err) {
      console.error("[analytics] roll-up failed:", (err as Error).message);
    }
  };
  // A tick while a run goes on (one working off a backlog) is skipped, not queued behind it.
  const timer = setInterval(() => {
    running ??= run().finally(() => (running = undefined));
  }, config().VIEW_ROLLUP_EVERY_S * 1000).unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
