import { randomUUID } from "node:crypto";
import os from "node:os";
import { pathToFileURL } from "node:url";
import { Inngest, eventType } from "inngest";
import { closeDb, db } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { startJobDriver } from "@/lib/jobs/driver";
import { emit } from "@/lib/jobs/emit";

/**
 * The built-in job driver alone, on a trivial one-step function, in this process:
 * - burst: 1,000 events emitted 20 at a time as fast as possible; runs/s from the
 *   first emit to the last run's completion, and event-to-first-step latency;
 * - paced: 1,000 events at 100/s, the latency of an event arriving on an idle-ish driver.
 * `DATABASE_URL=... npx tsx bench/jobs.ts`
 */
const EVENTS = Number(process.env.BENCH_JOB_EVENTS ?? 1000);
const BURST_PARALLEL_EMITS = 20;
const PACED_PER_SECOND = 100;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface JobFigures {
  events: number;
  runsPerSecond: number;
  /** This process's CPU time per run in the burst (emitting included): what bounds runs/s. */
  cpuMsPerRun: number;
  burstP50Ms: number;
  burstP99Ms: number;
  pacedP50Ms: number;
  pacedP99Ms: number;
}

export async function benchJobs(): Promise<JobFigures> {
  const client = new Inngest({ id: "castline-bench-jobs" });
  const eventName = `bench.jobs.${randomUUID()}`;
  const latencies: Record<"burst" | "paced", number[]> = { burst: [], paced: [] };
  const trivial = client.createFunction({ id: "trivial", triggers: [{ event: eventName }] }, async ({ event, step }) => {
    await step.run("first", () => {
      latencies[event.data.phase as "burst" | "paced"].push(Date.now() - event.data.sentAt);
    });
  });
  const sql = db().$client;
  const finished = async (count: number) => {
    for (;;) {
      const [row] = await sql<{ n: number; last: string | null }[]>`
        SELECT count(*)::int AS n, max(r.ended_at) AS last FROM job_runs r JOIN job_events e ON e.id = r.event_id
        WHERE e.name = ${eventName} AND r.status = 'completed'`;
      if (row.n >= count) return Number(row.last);
      await sleep(20);
    }
  };
  const send = (phase: string) => emit(eventType(eventName), { phase, sentAt: Date.now() });

  const driver = await startJobDriver({ client, functions: [trivial] });
  try {
    const started = Date.now();
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < EVENTS; i += BURST_PARALLEL_EMITS) {
      await Promise.all(Array.from({ length: Math.min(BURST_PARALLEL_EMITS, EVENTS - i) }, () => send("burst")));
    }
    const lastDone = await finished(EVENTS);
    const cpu = process.cpuUsage(cpuBefore);

    const pacedStart = Date.now();
    for (let i = 0; i < EVENTS; i++) {
      await send("paced");
      await sleep(pacedStart + ((i + 1) * 1000) / PACED_PER_SECOND - Date.now());
    }
    await finished(2 * EVENTS);

    const burst = latencies.burst.sort((a, b) => a - b);
    const paced = latencies.paced.sort((a, b) => a - b);
    const figures: JobFigures = {
      events: EVENTS,
      runsPerSecond: EVENTS / ((lastDone - started) / 1000),
      cpuMsPerRun: (cpu.user + cpu.system) / 1000 / EVENTS,
      burstP50Ms: percentile(burst, 50),
      burstP99Ms: percentile(burst, 99),
      pacedP50Ms: percentile(paced, 50),
      pacedP99Ms: percentile(paced, 99),
    };
    console.log(`\nJob driver (${EVENTS} events of a one-step function, built-in driver, ${os.cpus().length} cores)`);
    console.log(
      `burst: ${figures.runsPerSecond.toFixed(0)} runs/s (${figures.cpuMsPerRun.toFixed(1)} ms CPU per run); ` +
        `event-to-first-step p50 ${figures.burstP50Ms} ms, p99 ${figures.burstP99Ms} ms`,
    );
    console.log(`paced at ${PACED_PER_SECOND}/s: event-to-first-step p50 ${figures.pacedP50Ms} ms, p99 ${figures.pacedP99Ms} ms`);
    return figures;
  } finally {
    await driver.stop();
    await sql`DELETE FROM job_events WHERE name = ${eventName}`;
    await sql`DELETE FROM job_functions WHERE app_id = ${client.id}`;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  setupDatabase()
    .then(benchJobs)
    .then(() => closeDb())
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
