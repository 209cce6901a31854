import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { config, reloadConfig } from "@/lib/config";
import { db } from "./client";
import { startEmbeddedDatabase } from "./embedded";

/** Any fixed number works; it only has to be the same in every Castline process. */
const MIGRATION_LOCK = 4_711_001;

/**
 * Makes the database ready for this process: starts the embedded server when
 * DATABASE_URL is unset, then applies the committed migrations under an advisory
 * lock so that processes starting together migrate once.
 * Returns a function that releases what this process started.
 */
export async function setupDatabase(): Promise<() => Promise<void>> {
  const cfg = config();
  let stopServer = async () => {};
  if (!cfg.DATABASE_URL) {
    const embedded = await startEmbeddedDatabase(cfg.dataDir);
    // In the environment for the processes this one starts, and in its own config.
    process.env.DATABASE_URL = embedded.url;
    reloadConfig();
    stopServer = embedded.stop;
  }
  const conn = await db().$client.reserve();
  try {
    await conn`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(db(), { migrationsFolder: path.join(process.cwd(), "db/migrations") });
  } finally {
    await conn`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    conn.release();
  }
  await db().execute(sql`SELECT 1`);
  return stopServer;
}
