import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
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
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Castline with `npm start`, which provides it");
    holder.__castlineDb = createDatabase(url, Number(process.env.DB_POOL_SIZE) || 10);
  }
  return holder.__castlineDb;
}

export async function closeDb() {
  await holder.__castlineDb?.$client.end({ timeout: 5 });
  holder.__castlineDb = undefined;
}
