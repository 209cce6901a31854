import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { promisify } from "node:util";
import postgres from "postgres";
import { createScratchDatabase } from "./support/database";

const exec = promisify(execFile);
const setup = `import("./db/setup").then((m) => (m.setupDatabase ?? m.default.setupDatabase)()).then(() => process.exit(0))`;

describe("start-up", () => {
  test("two processes migrating one empty database at once both succeed, and migrate it once", async () => {
    const url = await createScratchDatabase();
    const env = { ...process.env, DATABASE_URL: url };
    await Promise.all([0, 1].map(() => exec(process.execPath, ["--import", "tsx", "-e", setup], { env })));
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const tables = await sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'streams'`;
      assert.equal(tables[0].n, 1);
      const applied = await sql`SELECT count(*)::int AS n, count(DISTINCT hash)::int AS d FROM drizzle.__drizzle_migrations`;
      assert.equal(applied[0].n, applied[0].d, "each migration recorded once");
    } finally {
      await sql.end();
    }
  });

  test("a bad setting stops the app with a message that names it", async () => {
    for (const [name, value] of [
      ["PORT", "eighty"],
      ["DATABASE_URL", "mysql://x"],
      ["ALLOW_SIGNUP", "maybe"],
    ]) {
      await assert.rejects(
        exec(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env: { ...process.env, [name]: value } }),
        (err: { stderr: string; code: number }) => err.code !== 0 && err.stderr.includes(name),
        name,
      );
    }
  });

  test("without ffmpeg (and no apt-get to install it), npm start stops and names what to install", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-noffmpeg-"));
    const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), "castline-path-"));
    try {
      const env = { ...process.env, PATH: emptyPath, DATA_DIR: dataDir, FFMPEG_PATH: "" };
      // An app that does not stop would start and listen: the timeout turns that into a failure.
      await assert.rejects(
        exec(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, timeout: 60_000 }),
        (err: { stderr: string; code: number }) => {
          assert.notEqual(err.code, 0);
          assert.match(err.stderr, /ffmpeg \(Debian\/Ubuntu package "ffmpeg"/);
          assert.match(err.stderr, /apt-get install -y ffmpeg/);
          return true;
        },
      );
      const chosen = { ...env, PATH: process.env.PATH, FFMPEG_PATH: "/nonexistent/ffmpeg" };
      await assert.rejects(exec(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env: chosen, timeout: 60_000 }), (err: { stderr: string }) =>
        err.stderr.includes("FFMPEG_PATH=/nonexistent/ffmpeg does not run ffmpeg"),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(emptyPath, { recursive: true, force: true });
    }
  });
});
