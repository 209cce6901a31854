import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { config } from "@/lib/config";
import * as schema from "./schema";

export type Database = ReturnType<typeof createDatabase>;

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
