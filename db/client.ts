import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
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
const holder = globalThis as unknown as { __castlineDb?: Database };

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

export async function closeDb() {
  await holder.__castlineDb?.$client.end({ timeout: 5 });
  holder.__castlineDb = undefined;
}
