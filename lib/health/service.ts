import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { DATABASE_UNAVAILABLE, RETRY_AFTER_S } from "@/db/availability";
import { unavailable } from "@/lib/errors";
import { workload } from "@/lib/metrics/cluster";
import { objects } from "@/lib/storage";
import type { Health } from "./schema";

/** Longer than this, a check counts as failed: a health answer must come quickly. */
const CHECK_TIMEOUT_MS = 3000;
/** Background work waiting longer than this means the workers are down or behind. */
const JOB_LAG_LIMIT_S = 60;
/** One fixed key, overwritten by every check: probes leave nothing behind. */
const PROBE_KEY = "health/probe";
const PROBE = "castline health probe";

/**
 * Whether this instance can serve (its database answers: otherwise a refusal, 503), and
 * whether the deployment around it works: the object store, the background workers, the media
 * nodes. Unauthenticated, so it says how things are, never why (no messages, no addresses).
 */
export async function checkHealth(): Promise<Health> {
  const [database, store] = await Promise.all([measure("database", workload), measure("store", probeStore)]);
  // The same answer the server gives while its watch sees the database down: one message, whichever notices first.
  if (!database.ok) throw unavailable(DATABASE_UNAVAILABLE, RETRY_AFTER_S);
  const work = database.value;
  const jobs = { ok: work.lagS <= JOB_LAG_LIMIT_S, lagS: Math.round(work.lagS * 10) / 10, queued: work.queued };
  const up = work.healthyNodes + work.overloadedNodes;
  const nodes = { ok: up > 0 || work.lostNodes === 0, healthy: work.healthyNodes, overloaded: work.overloadedNodes, lost: work.lostNodes };
  const checks = {
    database: { ok: true, latencyMs: database.latencyMs },
    store: { ok: store.ok, latencyMs: store.latencyMs, kind: objects().kind },
    jobs,
    nodes,
  };
  return { status: store.ok && jobs.ok && nodes.ok ? "ok" : "degraded", checks };
}

async function probeStore() {
  await objects().write(PROBE_KEY, Readable.from([Buffer.from(PROBE)]), { contentType: "text/plain" });
  if ((await text(await objects().read(PROBE_KEY))) !== PROBE) throw new Error("read back something else");
}

type Measured<T> = { ok: true; latencyMs: number; value: T } | { ok: false; latencyMs: number };

async function measure<T>(name: string, check: () => Promise<T>): Promise<Measured<T>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("no answer in time"), { name: "TimeoutError" })), CHECK_TIMEOUT_MS);
  });
  try {
    const value = await Promise.race([check(), timeout]);
    return { ok: true, latencyMs: elapsed(started), value };
  } catch (err) {
    // The name or code only: store errors can carry the endpoint or bucket.
    const e = err as NodeJS.ErrnoException;
    console.error(`health: the ${name} check failed: ${e.code ?? e.name}`);
    return { ok: false, latencyMs: elapsed(started) };
  } finally {
    clearTimeout(timer);
  }
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;
