import postgres from "postgres";
import { config } from "@/lib/config";

/**
 * Whether the database can be reached now, for answering 503 + Retry-After at once while it
 * cannot (instead of 500s, or requests hanging on connection attempts), and seeing it back.
 */

export const DATABASE_UNAVAILABLE = "the database is unavailable: try again shortly";
/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_S = 2;

/** postgres.js and socket codes that mean "no connection", not "a wrong query". */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
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

export interface DatabaseWatch {
  /** True from a probe the database refused (no connection) until one succeeds. */
  readonly down: boolean;
  stop(): void;
}

/**
 * Probes the database every second on a connection of its own (not queued behind the pool's
 * work), and says when it goes and comes back. Only "no connection" counts as down: a busy
 * database that answers slowly is slow, not away, and gets no 503s.
 */
export function watchDatabase(): DatabaseWatch {
  const probeClient = postgres(config().DATABASE_URL!, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  let down = false;
  let probing = false;
  const probe = async () => {
    if (probing) return;
    probing = true;
    try {
      await probeClient`SELECT 1`;
      if (down) console.error("The database answers again.");
      down = false;
    } catch (err) {
      if (!down && isDatabaseUnavailable(err)) console.error(`The database does not answer (${(err as { code?: string }).code}): answering 503 until it does.`);
      down ||= isDatabaseUnavailable(err);
    } finally {
      probing = false;
    }
  };
  const interval = setInterval(() => void probe(), PROBE_EVERY_MS);
  interval.unref();
  return {
    get down() {
      return down;
    },
    stop: () => {
      clearInterval(interval);
      void probeClient.end({ timeout: 1 });
    },
  };
}
