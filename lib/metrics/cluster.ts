import { Gauge, type Registry } from "prom-client";
import { db } from "@/db/client";

/**
 * What the whole deployment is doing, read from PostgreSQL: job workers and media nodes are
 * other processes (other machines), so an app instance cannot count their work itself.
 */
export interface Workload {
  /** Built-in driver runs due now that no process holds. */
  queued: number;
  /** Runs a process holds under its lease. */
  running: number;
  /** Age of the oldest queued run: how far behind the workers are. */
  lagS: number;
  healthyNodes: number;
  /** Up, but overloaded (lib/live/nodes.ts isOverloaded). */
  overloadedNodes: number;
  lostNodes: number;
}

/** One statement over pending runs (a partial index keeps it small) and the media nodes. */
export async function workload(now = Date.now()): Promise<Workload> {
  const [row] = await db().$client<{ queued: number; running: number; oldest: number | null; healthy: number; overloaded: number; lost: number }[]>`
    SELECT r.queued, r.running, r.oldest, n.healthy, n.overloaded, n.lost
    FROM (SELECT count(*) FILTER (WHERE locked_until <= ${now} AND next_run_at <= ${now})::int AS queued,
                 count(*) FILTER (WHERE locked_until > ${now})::int AS running,
                 min(next_run_at) FILTER (WHERE locked_until <= ${now} AND next_run_at <= ${now})::float8 AS oldest
          FROM job_runs WHERE status = 'pending') r,
         (SELECT count(*) FILTER (WHERE lost_at IS NULL AND NOT overloaded)::int AS healthy,
                 count(*) FILTER (WHERE lost_at IS NULL AND overloaded)::int AS overloaded,
                 count(*) FILTER (WHERE lost_at IS NOT NULL)::int AS lost
          FROM media_nodes) n`;
  return {
    queued: row.queued,
    running: row.running,
    lagS: row.oldest === null ? 0 : Math.max(0, (now - row.oldest) / 1000),
    healthyNodes: row.healthy,
    overloadedNodes: row.overloaded,
    lostNodes: row.lost,
  };
}

interface Totals {
  failedRuns: number;
  delivered: number;
  undelivered: number;
  liveSessions: number;
  /** Views' changes the roll-up has not added up yet (lib/analytics/rollup.ts). */
  viewChanges: number;
}

/** Counts over whole tables (failed runs are kept JOB_RETENTION_DAYS; delivery attempts until their webhook goes; view changes until the next roll-up). */
async function totals(): Promise<Totals> {
  const [row] = await db().$client<Totals[]>`
    SELECT (SELECT count(*) FROM job_runs WHERE status = 'failed')::int AS "failedRuns",
           w.delivered, w.undelivered,
           (SELECT count(*) FROM sessions WHERE is_active)::int AS "liveSessions",
           (SELECT count(*) FROM view_deltas)::int AS "viewChanges"
    FROM (SELECT count(*) FILTER (WHERE success)::int AS delivered,
                 count(*) FILTER (WHERE NOT success)::int AS undelivered
          FROM webhook_deliveries) w`;
  return row;
}

/**
 * The gauges read at scrape time. Prometheus asks for every metric at once; they share one
 * reading of the database (two statements) per scrape.
 */
export function registerClusterGauges(registry: Registry) {
  let reading: Promise<[Workload, Totals]> | undefined;
  const read = () => {
    reading ??= Promise.all([workload(), totals()]).finally(() => (reading = undefined));
    return reading;
  };
  new Gauge({
    name: "castline_job_runs",
    help: "Background runs of the built-in driver: queued (due, unclaimed), running (leased), failed (kept JOB_RETENTION_DAYS)",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      const [work, all] = await read();
      this.set({ status: "queued" }, work.queued);
      this.set({ status: "running" }, work.running);
      this.set({ status: "failed" }, all.failedRuns);
    },
  });
  new Gauge({
    name: "castline_job_lag_seconds",
    help: "Age of the oldest due run no worker holds (0: none waiting)",
    registers: [registry],
    async collect() {
      this.set((await read())[0].lagS);
    },
  });
  new Gauge({
    name: "castline_webhook_deliveries",
    help: "Webhook delivery attempts logged, by outcome",
    labelNames: ["outcome"] as const,
    registers: [registry],
    async collect() {
      const all = (await read())[1];
      this.set({ outcome: "delivered" }, all.delivered);
      this.set({ outcome: "failed" }, all.undelivered);
    },
  });
  new Gauge({
    name: "castline_live_sessions",
    help: "Sessions live now, on all media nodes",
    registers: [registry],
    async collect() {
      this.set((await read())[1].liveSessions);
    },
  });
  new Gauge({
    name: "castline_view_changes_pending",
    help: "Changes the beacon writer recorded that the viewer analytics roll-up has not added up yet: growing from scrape to scrape, the roll-up falls behind the beacons",
    registers: [registry],
    async collect() {
      this.set((await read())[1].viewChanges);
    },
  });
  new Gauge({
    name: "castline_media_nodes",
    help: "Registered media nodes: healthy (heartbeating), overloaded (heartbeating, CPU overloaded or a broadcast behind real time) or lost",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const work = (await read())[0];
      this.set({ state: "healthy" }, work.healthyNodes);
      this.set({ state: "overloaded" }, work.overloadedNodes);
      this.set({ state: "lost" }, work.lostNodes);
    },
  });
}
