import fs from "node:fs";
import os from "node:os";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import { BACKGROUND_NICENESS } from "@/lib/av/machine";
import { config } from "@/lib/config";
import * as schema from "./schema";

export type Database = ReturnType<typeof createDatabase>;
/** The pool or a transaction on it: what a write that may join a caller's transaction runs on. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A change written, and its announcement (webhooks), to make once the change is committed. */
export interface Written<Row> {
  row: Row;
  announce(): Promise<void>;
}

function createDatabase(url: string, max: number) {
  // A database that does not answer is reported (503) within seconds, not after postgres.js's default 30 s.
  const client = postgres(url, { max, onnotice: () => {}, connect_timeout: 10 });
  return drizzle(client, { schema });
}

/**
 * One pool per process. It lives on globalThis because Next bundles route
 * modules separately and the launcher imports this file as well.
 */
const holder = globalThis as unknown as { __castlineDb?: Database; __castlineBackgroundDb?: Sql };

/**
 * Writes that commit as one (an asset's end and its task's: nobody reads one settled and the
 * other still running), announced to webhooks once committed.
 */
export async function commitThenAnnounce(writes: (tx: Executor) => Promise<(Written<unknown> | undefined)[]>): Promise<void> {
  const written = await db().transaction(writes);
  for (const w of written) await w?.announce();
}

export function db(): Database {
  if (!holder.__castlineDb) {
    const { DATABASE_URL, DB_POOL_SIZE } = config();
    if (!DATABASE_URL) throw new Error("DATABASE_URL is not set: start Castline with `npm start`, which provides it");
    holder.__castlineDb = createDatabase(DATABASE_URL, DB_POOL_SIZE);
  }
  return holder.__castlineDb;
}

/**
 * One connection of its own for background work that requests should not wait behind (the
 * views roll-up, lib/analytics/rollup.ts). Where the database server shares this machine its
 * statements run at a lower CPU priority than the pool's (backgroundPriority), and its commits
 * do not wait for the disk (synchronous_commit off: a crash may undo its last transactions, each
 * whole, never a part of one; the roll-up's then apply their changes again).
 */
export function backgroundDb(): Sql {
  if (!holder.__castlineBackgroundDb) {
    const { DATABASE_URL } = config();
    if (!DATABASE_URL) throw new Error("DATABASE_URL is not set: start Castline with `npm start`, which provides it");
    holder.__castlineBackgroundDb = postgres(DATABASE_URL, {
      max: 1,
      onnotice: () => {},
      connect_timeout: 10,
      connection: { synchronous_commit: "off", application_name: "castline background" },
    });
  }
  return holder.__castlineBackgroundDb;
}

/**
 * Lowers the CPU priority of the server process behind `sql`'s connection to BACKGROUND_NICENESS
 * (background encoders' too: a tenth of the CPU's share against normal work when they compete)
 * when the database server runs on this machine (the embedded one, or a local server run by this
 * user or, as root, by any): the process of that id here is a PostgreSQL backend of this
 * connection's database (its title names it). Anywhere else, nothing changes.
 */
export async function backgroundPriority(sql: Sql): Promise<void> {
  const [{ pid, database }] = await sql<{ pid: number; database: string }[]>`SELECT pg_backend_pid() AS pid, current_database() AS database`;
  try {
    const title = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (!title.startsWith("postgres: ") || !title.includes(` ${database} `)) return;
    if (os.getPriority(pid) < BACKGROUND_NICENESS) os.setPriority(pid, BACKGROUND_NICENESS);
  } catch {
    // not a process of this machine, or not ours to change
  }
}

export async function closeDb() {
  await holder.__castlineDb?.$client.end({ timeout: 5 });
  holder.__castlineDb = undefined;
  await holder.__castlineBackgroundDb?.end({ timeout: 5 });
  holder.__castlineBackgroundDb = undefined;
}
