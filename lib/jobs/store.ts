import type { TransactionSql } from "postgres";
import { db } from "@/db/client";
import type { JobStepResult } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { FunctionSpec } from "./functions";

/**
 * The built-in driver's state in PostgreSQL: events, runs, and the leases that keep
 * two processes from driving the same run. Times are Date.now() milliseconds of the
 * writing process: hosts sharing a database are expected to keep their clocks in sync.
 */

/**
 * Forgets events older than `before` (ms) once none of their runs is pending; their
 * finished runs go with them (ON DELETE CASCADE). Returns how many events went.
 */
export async function purgeFinished(before: number): Promise<number> {
  const gone = await sql()`
    DELETE FROM job_events e
    WHERE e.ts < ${before}
      AND NOT EXISTS (SELECT 1 FROM job_runs r WHERE r.event_id = e.id AND r.status = 'pending')
    RETURNING 1`;
  return gone.length;
}

/** Wakes every driver process when there are new runs. */
const WAKE_CHANNEL = "castline_jobs";

export interface EventInput {
  name: string;
  data?: Record<string, unknown>;
  id?: string;
  ts?: number;
}

/** An event as functions receive it. */
export interface JobEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
}

export interface Run {
  id: string;
  functionId: string;
  event: JobEvent;
  steps: Record<string, JobStepResult>;
  stack: string[];
  planned: string[];
  attempt: number;
  parallel: boolean;
  concurrencyKey: string | null;
  nextRunAt: number;
}

const sql = () => db().$client;
type Sql = ReturnType<typeof sql> | TransactionSql<Record<string, never>>;

/** db/client's drizzle setup makes postgres.js send json parameters as given, so they go as text. */
const json = (value: unknown) => JSON.stringify(value);

/**
 * Records the app's event-triggered functions so emit() in any process creates their
 * runs, and forgets the app's functions that are gone, as an Inngest app sync does.
 */
export async function syncFunctions(appId: string, specs: FunctionSpec[]): Promise<void> {
  const triggered = specs.filter((s) => s.events.length > 0);
  const rows = triggered.map((s) => ({
    id: s.id,
    events: s.events,
    limit: s.concurrency?.limit ?? null,
    key_path: s.concurrency?.keyPath ?? null,
  }));
  await sql().begin(async (tx) => {
    await tx`DELETE FROM job_functions WHERE app_id = ${appId} AND NOT (id = ANY(${triggered.map((s) => s.id)}::text[]))`;
    if (!rows.length) return;
    await tx`
      INSERT INTO job_functions (id, app_id, events, concurrency_limit, concurrency_key_path, synced_at)
      SELECT f.id, ${appId}, f.events, f.limit, f.key_path, ${Date.now()}
      FROM jsonb_to_recordset(${json(rows)}::jsonb) AS f(id text, events text[], "limit" int, key_path text[])
      ON CONFLICT (id) DO UPDATE SET
        app_id = excluded.app_id, events = excluded.events, concurrency_limit = excluded.concurrency_limit,
        concurrency_key_path = excluded.concurrency_key_path, synced_at = excluded.synced_at`;
  });
}

/**
 * Stores the events and creates a run for every synced function they trigger, in one
 * statement; a repeated event id is ignored. Returns the event ids.
 */
export async function insertEvents(inputs: EventInput[]): Promise<string[]> {
  const now = Date.now();
  const events = inputs.map((e) => ({ id: e.id ?? newId(), name: e.name, data: e.data ?? {}, ts: e.ts ?? now }));
  await sql()`
    WITH event AS (
      INSERT INTO job_events (id, name, data, ts)
      SELECT id, name, data, ts FROM jsonb_to_recordset(${json(events)}::jsonb) AS e(id text, name text, data jsonb, ts bigint)
      ON CONFLICT (id) DO NOTHING
      RETURNING id, name, data
    ), run AS (
      INSERT INTO job_runs (id, function_id, event_id, concurrency_key, concurrency_limit, next_run_at, created_at)
      SELECT gen_random_uuid()::text, f.id, event.id,
             CASE WHEN f.concurrency_limit IS NOT NULL
                  THEN f.id || ':' || coalesce(event.data #>> f.concurrency_key_path, '') END,
             f.concurrency_limit, ${now}, ${now}
      FROM event JOIN job_functions f ON event.name = ANY(f.events)
      RETURNING 1
    )
    SELECT pg_notify(${WAKE_CHANNEL}, '') WHERE EXISTS (SELECT FROM run)`;
  return events.map((e) => e.id);
}

interface RunRow {
  id: string;
  function_id: string;
  event_id: string;
  event_name: string;
  event_data: Record<string, unknown>;
  event_ts: string | number;
  steps: Record<string, JobStepResult>;
  stack: string[];
  planned: string[];
  attempt: number;
  parallel: boolean;
  concurrency_key: string | null;
  next_run_at: string | number;
}

const toRun = (r: RunRow): Run => ({
  id: r.id,
  functionId: r.function_id,
  event: { id: r.event_id, name: r.event_name, data: r.event_data, ts: Number(r.event_ts) },
  steps: r.steps,
  stack: r.stack,
  planned: r.planned,
  attempt: r.attempt,
  parallel: r.parallel,
  concurrencyKey: r.concurrency_key,
  nextRunAt: Number(r.next_run_at),
});

/**
 * Leases up to `limit` due runs of the given functions to `owner`. SKIP LOCKED lets
 * processes claim side by side without waiting on each other. Runs with a concurrency
 * key are only taken while fewer than their limit are leased: an advisory lock per key
 * makes that count-then-claim atomic across processes. Runs due at the same instant go
 * in event id order (emitters name events to order them). `more` says a full batch was
 * found, so more runs may be due.
 */
export async function claimRuns(opts: { owner: string; functionIds: string[]; limit: number; leaseMs: number }) {
  const now = Date.now();
  return sql().begin(async (tx) => {
    const due = await tx<{ id: string; concurrency_key: string | null; concurrency_limit: number | null }[]>`
      SELECT id, concurrency_key, concurrency_limit FROM job_runs r
      WHERE status = 'pending' AND next_run_at <= ${now} AND locked_until < ${now}
        AND function_id = ANY(${opts.functionIds}::text[])
        AND (concurrency_key IS NULL OR concurrency_limit > (
          SELECT count(*) FROM job_runs busy WHERE busy.concurrency_key = r.concurrency_key
            AND busy.status = 'pending' AND busy.locked_until >= ${now}))
      ORDER BY next_run_at, event_id
      LIMIT ${opts.limit}
      FOR UPDATE SKIP LOCKED`;
    const more = due.length === opts.limit;
    const keys = [...new Set(due.flatMap((r) => r.concurrency_key ?? []))].sort();
    let chosen = [...due];
    if (keys.length) {
      await tx`SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM (SELECT unnest(${keys}::text[]) AS key ORDER BY 1) k`;
      // A new statement, so it sees leases committed by other processes while we waited.
      const busy = await tx<{ key: string; n: number }[]>`
        SELECT concurrency_key AS key, count(*)::int AS n FROM job_runs
        WHERE concurrency_key = ANY(${keys}::text[]) AND status = 'pending' AND locked_until >= ${now}
        GROUP BY concurrency_key`;
      const taken = new Map(busy.map((b) => [b.key, b.n]));
      chosen = due.filter((r) => {
        if (!r.concurrency_key) return true;
        const n = taken.get(r.concurrency_key) ?? 0;
        taken.set(r.concurrency_key, n + 1);
        return n < r.concurrency_limit!;
      });
    }
    if (!chosen.length) return { runs: [], more, now };
    const rows = await tx<RunRow[]>`
      UPDATE job_runs r SET locked_by = ${opts.owner}, locked_until = ${now + opts.leaseMs}
      FROM job_events e
      WHERE r.id = ANY(${chosen.map((c) => c.id)}::text[]) AND e.id = r.event_id
      RETURNING r.id, r.function_id, r.event_id, e.name AS event_name, e.data AS event_data, e.ts AS event_ts,
        r.steps, r.stack, r.planned, r.attempt, r.parallel, r.concurrency_key, r.next_run_at`;
    return { runs: rows.map(toRun), more, now };
  });
}

/**
 * Writes the run's progress, which must be durable before the run goes on (a memoised
 * step must never run again). With `release`, hands the run back to the queue until
 * its next_run_at. Returns false if the lease was lost to another process.
 */
export async function saveRun(run: Run, owner: string, release: boolean): Promise<boolean> {
  const rows = await sql()`
    UPDATE job_runs SET
      steps = ${json(run.steps)}::jsonb, stack = ${run.stack}::text[], planned = ${run.planned}::text[],
      attempt = ${run.attempt}, parallel = ${run.parallel}, next_run_at = ${run.nextRunAt},
      locked_by = CASE WHEN ${release} THEN NULL ELSE locked_by END,
      locked_until = CASE WHEN ${release} THEN 0 ELSE locked_until END
    WHERE id = ${run.id} AND locked_by = ${owner}
    RETURNING id`;
  return rows.length > 0;
}

/**
 * Ends the run with its output or error. A failed run whose function has an onFailure
 * handler (`failureId`) starts it with the `inngest/function.failed` event an Inngest
 * server would send. Returns false if the lease was lost to another process.
 */
export async function finishRun(run: Run, owner: string, result: { output: unknown } | { error: unknown }, failureId: string | null): Promise<boolean> {
  const now = Date.now();
  const failed = "error" in result;
  const finish = async (q: Sql) => {
    const rows = await q`
      UPDATE job_runs SET status = ${failed ? "failed" : "completed"},
        output = ${failed ? null : json(result.output ?? null)}::jsonb,
        error = ${failed ? json(result.error) : null}::jsonb,
        steps = ${json(run.steps)}::jsonb, stack = ${run.stack}::text[],
        locked_by = NULL, locked_until = 0, ended_at = ${now}
      WHERE id = ${run.id} AND locked_by = ${owner}
      RETURNING id`;
    return rows.length > 0;
  };
  if (!failed || !failureId) return finish(sql());

  return sql().begin(async (tx) => {
    if (!(await finish(tx))) return false;
    const eventId = newId();
    const data = { function_id: run.functionId, run_id: run.id, error: result.error, event: run.event };
    await tx`INSERT INTO job_events (id, name, data, ts)
             VALUES (${eventId}, 'inngest/function.failed', ${json(data)}::jsonb, ${now})`;
    await tx`INSERT INTO job_runs (id, function_id, event_id, next_run_at, created_at)
             VALUES (${newId()}, ${failureId}, ${eventId}, ${now}, ${now})`;
    await tx`SELECT pg_notify(${WAKE_CHANNEL}, '')`;
    return true;
  });
}

/** Extends the leases of the runs this process is driving. */
export async function renewLeases(owner: string, runIds: string[], leaseMs: number): Promise<void> {
  await sql()`
    UPDATE job_runs SET locked_until = ${Date.now() + leaseMs}
    WHERE id = ANY(${runIds}::text[]) AND locked_by = ${owner}`;
}

/** When the next sleeping or backing-off run of these functions becomes due, if any. */
/**
 * When the next run falls due after `after`: the time a claim looked (runs due by then were
 * its to take), not the time of this query, or a run falling due in between would be missed
 * until the slow poll.
 */
export async function nextDueAt(functionIds: string[], after: number): Promise<number | null> {
  const [row] = await sql()<{ at: string | null }[]>`
    SELECT min(next_run_at) AS at FROM job_runs
    WHERE status = 'pending' AND next_run_at > ${after} AND function_id = ANY(${functionIds}::text[])`;
  return row.at === null ? null : Number(row.at);
}

/** Subscribes to wake-ups; postgres.js re-listens by itself after a reconnect. */
export async function listenForWork(onWake: () => void): Promise<() => Promise<void>> {
  const { unlisten } = await sql().listen(WAKE_CHANNEL, onWake);
  return unlisten;
}
