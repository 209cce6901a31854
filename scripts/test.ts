import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { startAppProcess } from "./app-process";
import { buildIfNeeded } from "./build-if-needed";
import { CHROMIUM, ensurePrograms, FFMPEG } from "./prerequisites";
import { freePort } from "@/lib/net/free-port";

/**
 * `npm test`: first the fast tier (test/unit: pure modules in-process, seconds, no
 * build or database), then one real app (production build, real PostgreSQL: embedded,
 * or DATABASE_URL when set) and the whole suite against it: the HTTP integration
 * tests (node:test) and the browser tests (Playwright, Debian chromium).
 * `npm test -- unit` runs the fast tier alone.
 */
const root = process.cwd();


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

const nodeTest = (tap: string, files: string[]) => [
  "--import", "tsx", "--test", "--test-reporter=spec", "--test-reporter-destination=stdout", "--test-reporter=tap", `--test-reporter-destination=${tap}`, ...files,
];

async function unitTier(tap: string) {
  const dir = path.join(root, "test", "unit");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".test.ts")).map((f) => path.join("test", "unit", f));
  await run(process.execPath, nodeTest(tap, files), { ...process.env, NODE_ENV: "test" });
  return tapCounts(tap);
}

function report(tiers: Record<string, { passed: number; failed: number }>) {
  const all = Object.values(tiers);
  const passed = all.reduce((n, t) => n + t.passed, 0);
  const failed = all.reduce((n, t) => n + t.failed, 0);
  console.log(`\n${Object.entries(tiers).map(([name, t]) => `${name}: ${t.passed} passed, ${t.failed} failed`).join("; ")}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed || !passed ? 1 : 0;
}

async function main() {
  const only = process.argv.slice(2);
  const unitTap = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "castline-unit-")), "unit.tap");
  const unit = await unitTier(unitTap);
  if (only.length === 1 && only[0] === "unit") process.exit(report({ unit }));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-test-"));
  // Before anything reads the configuration (ensurePrograms does): it is read once, and the
  // suite's database must be this fresh one, not ./data's.
  process.env.DATA_DIR = dataDir;
  ensurePrograms([CHROMIUM, FFMPEG]);
  const stopDatabase = await setupDatabase();
  await closeDb();
  buildIfNeeded(root);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_URLS: "true",
    // every JSON answer is checked against its operation's declared schema
    CHECK_RESPONSES: "true",
    RTMP_PORT: String(await freePort()),
    RTMP_HOST: "127.0.0.1",
    // short enough for the reconnect-window tests to see recordings become assets
    RECORDING_RECONNECT_WINDOW_S: "8",
    // the IPFS export tests run a fake Pinata here
    PINNING_API_URL: `http://127.0.0.1:${await freePort()}`,
    // limits counted on every request, too high for the suite's many requests from one address to reach
    // (test/rate-limits.test.ts runs its own app with low ones)
    RATE_LIMIT_API_PER_MIN: "1000000",
    RATE_LIMIT_IP_PER_MIN: "1000000",
    RATE_LIMIT_AUTH_PER_MIN: "1000000",
    RATE_LIMIT_PLAYBACK_PER_MIN: "1000000",
    // the metrics test scrapes /metrics with it
    METRICS_TOKEN: randomBytes(24).toString("base64url"),
  };
  const app = await startAppProcess(env);
  console.log(`app under test: ${app.url} (data in ${dataDir})`);
  const testEnv = { ...env, CASTLINE_URL: app.url, CASTLINE_RTMP_PORT: env.RTMP_PORT };

  const files = fs
    .readdirSync(path.join(root, "test"))
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => !only.length || only.some((o) => f.includes(o)))
    .map((f) => path.join("test", f));
  const tap = path.join(dataDir, "node-tests.tap");
  // With no files node --test would look for tests everywhere (the build output too).
  if (files.length) await run(process.execPath, nodeTest(tap, files), testEnv);
  const integration = tapCounts(tap);

  // "e2e" runs every browser spec; another word runs the specs whose file name holds it.
  const specs = fs
    .readdirSync(path.join(root, "e2e"))
    .filter((f) => f.endsWith(".spec.ts"))
    .filter((f) => !only.length || only.includes("e2e") || only.some((o) => f.includes(o)))
    .map((f) => path.join("e2e", f));
  let browser = { passed: 0, failed: 0 };
  if (specs.length) {
    const report = path.join(dataDir, "playwright.json");
    const cli = [require.resolve("@playwright/test/cli"), "test", "--reporter=list,json"];
    await run(process.execPath, only.length ? [...cli, ...specs] : cli, {
      ...testEnv,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    });
    browser = playwrightCounts(report);
  }

  await app.stop();
  await stopDatabase();
  if (!process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });

  process.exit(report({ unit, integration, browser }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
