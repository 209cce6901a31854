import { sql } from "drizzle-orm";
import { db } from "./client";

/**
 * Whether the database can be reached now, for answering 503 + Retry-After at once while it
 * cannot (instead of 500s, or requests hanging on connection attempts), and seeing it back.
 */

export const DATABASE_UNAVAILABLE = "the database is unavailable: try again shortly";
/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_S = 2;

/** postgres.js and socket codes that mean "no connection", not "a wrong query". */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN",
  "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT",
]);
/** SQLSTATEs of the same: class 08 (connection exception), shutting down or starting up, no connection slots. */
const UNAVAILABLE_STATE = /^(08\w{3}|57P0[123]|53300)$/;

/** Whether `err` (or what it wraps: drizzle puts the driver's error in `cause`) says the database is out of reach. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
  }
  return false;
}

const PROBE_EVERY_MS = 1000;
const PROBE_TIMEOUT_MS = 2000;

export interface DatabaseWatch {
  /** True from the first failed probe until one succeeds. */
  readonly down: boolean;
  stop(): void;
}

/** Probes the database every second; says when it goes and comes back. */
export function watchDatabase(): DatabaseWatch {
  let down = false;
  let probing = false;
  const probe = async () => {
    if (probing) return;
    probing = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db().execute(sql`SELECT 1`),
        new Promise((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error("no answer"), { code: "CONNECT_TIMEOUT" })), PROBE_TIMEOUT_MS))),
      ]);
      if (down) console.error("The database answers again.");
      down = false;
    } catch (err) {
      if (!down) console.error(`The database does not answer (${(err as { code?: string }).code ?? (err as Error).name}): answering 503 until it does.`);
      down = true;
    } finally {
      clearTimeout(timer);
      probing = false;
    }
  };
  const interval = setInterval(() => void probe(), PROBE_EVERY_MS);
  interval.unref();
  return {
    get down() {
      return down;
    },
    stop: () => clearInterval(interval),
  };
}
