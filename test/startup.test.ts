import assert from "node:assert/strict";
import { execFile } from "node:child_process";
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
    for (const [name, value] of [["PORT", "eighty"], ["DATABASE_URL", "mysql://x"], ["ALLOW_SIGNUP", "maybe"]]) {
      await assert.rejects(
        exec(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env: { ...process.env, [name]: value } }),
        (err: { stderr: string; code: number }) => err.code !== 0 && err.stderr.includes(name),
        name,
      );
    }
  });
});
