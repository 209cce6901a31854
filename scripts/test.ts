import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { buildIfNeeded } from "./build-if-needed";
import { ensurePrerequisites } from "./prerequisites";

/**
 * `npm test`: one real app (production build, real PostgreSQL: embedded, or
 * DATABASE_URL when set) and the whole suite against it: the HTTP integration
 * tests (node:test) and the browser tests (Playwright, Debian chromium).
 */
const root = process.cwd();

function startApp(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
    const log = fs.createWriteStream(path.join(env.DATA_DIR!, "app.log"));
    let seen = "";
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        child.stdout!.off("data", onData);
        child.stdout!.on("data", (c) => log.write(c));
        resolve({ child, url: match[1] });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c) => {
      log.write(c);
      process.stderr.write(c);
    });
    child.on("exit", (code) => reject(new Error(`app exited with ${code} before listening:\n${seen}`)));
  });
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

function tapCounts(file: string) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const count = (label: string) => Number(new RegExp(`^# ${label} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  return { passed: count("pass"), failed: count("fail") + count("cancelled") };
}

function playwrightCounts(file: string) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1 };
  const { stats } = JSON.parse(fs.readFileSync(file, "utf8"));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
}

async function main() {
  ensurePrerequisites();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-test-"));
  process.env.DATA_DIR = dataDir;
  const stopDatabase = await setupDatabase();
  await closeDb();
  buildIfNeeded(root);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_URLS: "true",
  };
  const app = await startApp(env);
  console.log(`app under test: ${app.url} (data in ${dataDir})`);
  const testEnv = { ...env, CASTLINE_URL: app.url };

  const only = process.argv.slice(2);
  const files = fs
    .readdirSync(path.join(root, "test"))
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => !only.length || only.some((o) => f.includes(o)))
    .map((f) => path.join("test", f));
  const tap = path.join(dataDir, "node-tests.tap");
  await run(
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=spec", "--test-reporter-destination=stdout", "--test-reporter=tap", `--test-reporter-destination=${tap}`, ...files],
    testEnv,
  );
  const integration = tapCounts(tap);

  let browser = { passed: 0, failed: 0 };
  if (!only.length || only.includes("e2e")) {
    const report = path.join(dataDir, "playwright.json");
    await run(process.execPath, [require.resolve("@playwright/test/cli"), "test", "--reporter=list,json"], {
      ...testEnv,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    });
    browser = playwrightCounts(report);
  }

  app.child.kill("SIGTERM");
  await new Promise((r) => app.child.once("exit", r));
  await stopDatabase();
  if (!process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });

  const passed = integration.passed + browser.passed;
  const failed = integration.failed + browser.failed;
  console.log(`\nintegration: ${integration.passed} passed, ${integration.failed} failed; browser: ${browser.passed} passed, ${browser.failed} failed`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed || !passed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
