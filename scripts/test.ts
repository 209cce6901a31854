import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess } from "./app-process";
import { buildIfNeeded } from "./build-if-needed";
import { CHROMIUM, CHROMIUM_WEBRTC, ensurePrograms, FFMPEG, IPROUTE, NGINX } from "./prerequisites";
import { nodeTestArgs, runPool, tapCounts, type FileResult, type PoolOptions } from "./test-pool";

/**
 * `npm test`: the type check and the suite's four tiers.
 *   unit         test/unit: pure modules in-process, seconds, no build or database
 *   database     test/db: modules against real PostgreSQL in-process (the job driver, claims,
 *                lockers, route handlers called directly), no build and no app
 *   integration  test/*.test.ts: HTTP through one real app (production build, real PostgreSQL:
 *                embedded, or DATABASE_URL when set, real ffmpeg), several files at once
 *   browser      e2e/*.spec.ts: Playwright in Debian's chromium against the same app
 * The unit tier runs while the database starts and the app builds, the database tier while
 * the app builds; the type check (`npm run typecheck`, in full runs: the build leaves it to
 * this) from the end of the build, while the app starts (half the machine stood idle then);
 * integration and browser side by side once the app is up.
 *
 *   npm test                     everything
 *   npm test -- <word>...        the files whose names hold a word ("unit", "db", "e2e": a whole tier)
 *   npm test -- <word> -t <re>   only the tests whose names match
 *   npm test -- --serve          start the app under test and keep it up (Ctrl-C ends it);
 *                                `npm test -- <word>` in another shell then runs against it at once
 * The browser tier runs in two halves of equal time side by side
 * (browserTier; BROWSER_WORKERS makes it one run of that many workers). Integration files run one
 * or two at a time beside it and three to five once it is done (integrationConcurrency;
 * TEST_CONCURRENCY fixes the number); a file with the line
 * `// npm test: alone` runs by itself at the end.
 */
const root = process.cwd();
/** Where a served app under test says how to reach it (the checkout's own; not committed). */
const SERVED = path.join(root, ".test-app.json");
/** Each integration file's time in the last full run: the longest start first. */
const DURATIONS = path.join(root, "test", "durations.json");
/** Each browser spec file's time in the last full run: the tier's halves are made of equal time. */
const BROWSER_DURATIONS = path.join(root, "e2e", "durations.json");

interface Args {
  words: string[];
  namePattern?: string;
  serve: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { words: [], serve: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--serve") args.serve = true;
    else if (argv[i] === "-t" || argv[i] === "--name") args.namePattern = argv[++i];
    else args.words.push(argv[i]);
  }
  return args;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { results: { status: string; duration?: number; error?: { message?: string } }[] }[] }[];
}

/** The browser tier's counts, and a few lines on each failed test (for the run's closing summary). */
function playwrightCounts(file: string) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, failures: ["the browser tier wrote no report"], durations: {} };
  const { stats, suites } = JSON.parse(fs.readFileSync(file, "utf8")) as {
    stats: { expected: number; flaky: number; unexpected: number };
    suites: PlaywrightSuite[];
  };
  const failures: string[] = [];
  // The time each spec file's tests took, by its path ("e2e/clips.spec.ts"): the tier's halves are made of it.
  const durations: Record<string, number> = {};
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      const specFile = path.join("e2e", spec.file);
      for (const t of spec.tests) {
        for (const r of t.results) durations[specFile] = (durations[specFile] ?? 0) + (r.duration ?? 0);
        const last = t.results.at(-1);
        if (!last || last.status === "passed" || last.status === "skipped") continue;
        const message = (last.error?.message ?? last.status).replace(/\x1b\[[0-9;]*m/g, "");
        failures.push(`${spec.file}:${spec.line} ${[...titles, spec.title].join(" › ")}\n${indent(firstLines(message, 12))}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of suites ?? []) walk(suite, []);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, failures, durations };
}

const firstLines = (text: string, n: number) => text.split("\n").slice(0, n).join("\n");
const indent = (text: string) => text.replace(/^/gm, "    ");

const testFiles = (dir: string, suffix: string, keep: (name: string) => boolean) =>
  fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(suffix) && keep(f))
    .map((f) => path.join(dir, f));

/** Which files of each tier a run takes: all without words; with words, a tier's name or the files naming one. */
function selection({ words }: Args) {
  const wants = (tier: string, file: string) => !words.length || words.includes(tier) || words.some((w) => file.includes(w));
  return {
    unit: testFiles("test/unit", ".test.ts", (f) => wants("unit", f)),
    database: testFiles("test/db", ".test.ts", (f) => wants("db", f)),
    integration: testFiles("test", ".test.ts", (f) => wants("integration", f)),
    browser: testFiles("e2e", ".spec.ts", (f) => wants("e2e", f)),
  };
}

async function unitTier(files: string[], outDir: string, namePattern?: string) {
  if (!files.length) return undefined;
  const tap = path.join(outDir, "unit.tap");
  const spec = path.join(outDir, "unit.out");
  await run(process.execPath, nodeTestArgs(tap, spec, files, namePattern), { ...process.env, NODE_ENV: "test" });
  process.stdout.write(`\n── unit tier\n${fs.readFileSync(spec, "utf8")}`);
  return tapCounts(tap);
}

/** The database tier: each file in its own process against the suite's PostgreSQL, one at a time. */
async function databaseTier(files: string[], base: NodeJS.ProcessEnv, outDir: string, namePattern?: string) {
  if (!files.length) return undefined;
  // The suite's database (DATABASE_URL: setupDatabase's, or the served app's) and data folder;
  // private addresses allowed, as for the app under test (these tests serve fakes on loopback).
  const env: NodeJS.ProcessEnv = { ...base, NODE_ENV: "test", ALLOW_PRIVATE_URLS: "true" };
  // Two at once: they mostly wait (servers started and killed, leases, timers), and one at a time
  // they ended 20 s after the build, holding back the app's start.
  const results = await runPool({ files, concurrency: 2, env, outDir, namePattern });
  return { passed: sum(results, "passed"), failed: sum(results, "failed"), failures: results.flatMap((r) => r.failures) };
}

/**
 * A file that loads the machine on purpose or times what another file's load would skew (a CPU
 * hog, a node's heartbeats against its lost timeout) says so on a line of its own; it runs by
 * itself once everything else is done.
 */
const ALONE = /^\/\/ npm test: alone\b/m;
const runsAlone = (file: string) => ALONE.test(fs.readFileSync(path.join(root, file), "utf8"));

/**
 * Integration files at once: one while the browser tier runs beside them, three once it is done
 * (one file alone leaves a core idle much of the time: API calls, waits on leases and real-time
 * media; at two, the files left after the browser tier left 20-50% of the machine idle for three
 * minutes), and one more each time that, since anything last started, the machine has stood at
 * least IDLE_FOR_ONE_MORE idle for IDLE_WINDOW_S: up to one more beside the browser tier, two
 * after it. So a fast machine fills itself and a slow one is not overloaded.
 * TEST_CONCURRENCY fixes the number.
 */
function integrationConcurrency(browserDone: () => boolean, idle: IdleMeter): Pick<PoolOptions, "concurrency" | "onStart"> {
  const fixed = process.env.TEST_CONCURRENCY;
  if (fixed) return { concurrency: () => Number(fixed) };
  let most = 0;
  return {
    concurrency: (running) => {
      const base = browserDone() ? 3 : 1;
      if (!idle.idle()) return base;
      const allowed = Math.min(Math.max(running + 1, base), base + (browserDone() ? 2 : 1));
      if (allowed > Math.max(most, base)) {
        most = allowed;
        console.log(`\n(${allowed} integration files at once: the machine stood ${Math.round(idle.share() * 100)}% idle for ${IDLE_WINDOW_S} s)`);
      }
      return allowed;
    },
    // What a file just started will take is not in the window yet: measure afresh.
    onStart: () => idle.restart(),
  };
}
const IDLE_WINDOW_S = 10;
const IDLE_FOR_ONE_MORE = 0.3;

type IdleMeter = ReturnType<typeof idleMeter>;

/** The share of the machine's CPU time spent idle over the last `windowS` seconds (os.cpus()' counters). */
function idleMeter(windowS: number) {
  const now = () => {
    const cpus = os.cpus();
    const idle = cpus.reduce((sum, c) => sum + c.times.idle, 0);
    const all = cpus.reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq, 0);
    return { idle, all };
  };
  let samples = [now()];
  const timer = setInterval(() => {
    samples.push(now());
    if (samples.length > windowS + 1) samples.shift();
  }, 1000);
  timer.unref();
  return {
    full: () => samples.length > windowS,
    share: () => {
      const [first, last] = [samples[0], samples[samples.length - 1]];
      return last.all > first.all ? (last.idle - first.idle) / (last.all - first.all) : 0;
    },
    /** Idle enough, over a whole window, to start one more thing. */
    idle(): boolean {
      return this.full() && this.share() >= IDLE_FOR_ONE_MORE;
    },
    restart: () => void (samples = [now()]),
    stop: () => clearInterval(timer),
  };
}

async function integrationTier(files: string[], env: NodeJS.ProcessEnv, outDir: string, browserDone: () => boolean, idle: IdleMeter, namePattern?: string) {
  if (!files.length) return undefined;
  const known = fs.existsSync(DURATIONS) ? (JSON.parse(fs.readFileSync(DURATIONS, "utf8")) as Record<string, number>) : {};
  const concurrency = integrationConcurrency(browserDone, idle);
  const results = await runPool({ files: files.filter((f) => !runsAlone(f)), ...concurrency, env, outDir, namePattern, known });
  return { results, alone: files.filter(runsAlone), known };
}

/**
 * The browser tier. The whole of it runs as two halves of about equal time (by
 * e2e/durations.json), side by side from the start, one Playwright worker each: much of a browser
 * test is waiting on media and polls, and a second half started later (once the machine had room)
 * ended the tier minutes later whenever long integration files kept the machine busy.
 * BROWSER_WORKERS runs it as one Playwright run with that many workers instead; a selection of
 * specs runs as one.
 */
async function browserTier(specs: string[], env: NodeJS.ProcessEnv, outDir: string, all: boolean, namePattern?: string) {
  if (!specs.length) return undefined;
  const cli = [require.resolve("@playwright/test/cli"), "test", "--reporter=list,json", ...(namePattern ? ["-g", namePattern] : [])];
  const playwright = async (name: string, files: string[], workers?: string) => {
    const report = path.join(outDir, `${name}.json`);
    await run(process.execPath, [...cli, ...files], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, ...(workers ? { BROWSER_WORKERS: workers } : {}) });
    return playwrightCounts(report);
  };
  if (!all || process.env.BROWSER_WORKERS) return playwright("playwright", all ? [] : specs);
  const [one, two] = await Promise.all(halves(specs).map((files, i) => playwright(`playwright-${i + 1}`, files, "1")));
  return {
    passed: one.passed + two.passed,
    failed: one.failed + two.failed,
    failures: [...one.failures, ...two.failures],
    durations: { ...one.durations, ...two.durations },
  };
}

/** The spec files in two lists of about equal time, longest first into the lighter (a file not timed yet counts 10 s). */
function halves(specs: string[]): [string[], string[]] {
  const known = fs.existsSync(BROWSER_DURATIONS) ? (JSON.parse(fs.readFileSync(BROWSER_DURATIONS, "utf8")) as Record<string, number>) : {};
  const cost = (file: string) => known[file] ?? 10_000;
  const lists: [{ files: string[]; ms: number }, { files: string[]; ms: number }] = [
    { files: [], ms: 0 },
    { files: [], ms: 0 },
  ];
  for (const file of [...specs].sort((a, b) => cost(b) - cost(a))) {
    const into = lists[0].ms <= lists[1].ms ? lists[0] : lists[1];
    into.files.push(file);
    into.ms += cost(file);
  }
  return [lists[0].files, lists[1].files];
}

/** `tsc --noEmit` over the whole tree: a tier of one "test" that passes when the tree type-checks. */
async function typecheckTier(outDir: string) {
  const log = path.join(outDir, "typecheck.log");
  const out = fs.openSync(log, "w");
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc"), "--noEmit", "--incremental", "false"],
      { stdio: ["ignore", out, out] },
    );
    child.on("exit", (c) => resolve(c ?? 1));
  });
  process.stdout.write(`\n── ${code ? "✖" : "✔"} typecheck\n${fs.readFileSync(log, "utf8")}`);
  return { passed: code ? 0 : 1, failed: code ? 1 : 0, failures: code ? [firstLines(fs.readFileSync(log, "utf8"), 10)] : [] };
}

const sum = (rows: FileResult[], key: "passed" | "failed") => rows.reduce((n, r) => n + r[key], 0);

/** The app under test: its environment, shared by the tests (they read CASTLINE_URL and the rest). */
async function startAppUnderTest(dataDir: string) {
  const settings: Record<string, string> = {
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
    RATE_LIMIT_BEACONS_PER_MIN: "1000000",
    // views rolled up every 2 s, not 10: the analytics tests wait for them
    VIEW_ROLLUP_EVERY_S: "2",
    // No STUN on 3478 from the suite's apps, which share this machine's ports (the WebRTC test, in a
    // network namespace of its own, answers it there as the default does)
    STUN_PORT: "0",
    // the metrics test scrapes /metrics with it
    METRICS_TOKEN: randomBytes(24).toString("base64url"),
    // Renditions with x264's superfast preset (an operator setting): the same High-profile
    // streams, sizes and alignment the tests check, for about 30% less CPU than the default
    // veryfast (6.5 vs 9.4 CPU-seconds for 10 s of 720p to three rungs), on a machine the
    // suite keeps saturated. The apps tests start themselves inherit it from the environment.
    TRANSCODE_PRESET: "superfast",
    // scrypt at N = 2^12 instead of 2^15: the suite signs up and in hundreds of times (at 2^15,
    // 0.3 s of CPU each on this machine); hashes still cost enough for the timing test in auth.test.ts.
    PASSWORD_HASH_COST: "12",
  };
  const app = await startAppProcess({ ...process.env, ...settings });
  console.log(`app under test: ${app.url} (its log: ${path.join(dataDir, "app.log")})`);
  // What the tests get: the app's settings (the apps they start themselves inherit them), its
  // database (setupDatabase's DATABASE_URL), and where it answers.
  const forTests = { ...settings, DATABASE_URL: process.env.DATABASE_URL, CASTLINE_URL: app.url, CASTLINE_RTMP_PORT: settings.RTMP_PORT };
  return { app, env: { ...process.env, ...forTests }, forTests };
}

/** The environment of an app kept up by `npm test -- --serve`, when one still answers. */
async function servedApp(): Promise<NodeJS.ProcessEnv | undefined> {
  if (!fs.existsSync(SERVED)) return undefined;
  const served = JSON.parse(fs.readFileSync(SERVED, "utf8")) as { env: NodeJS.ProcessEnv };
  const up = await fetch(`${served.env.CASTLINE_URL}/api/health`, { signal: AbortSignal.timeout(3000) }).then(
    (r) => r.ok,
    () => false,
  );
  return up ? { ...process.env, ...served.env } : undefined;
}

interface TierCounts {
  passed: number;
  failed: number;
  /** A few lines on each failure, repeated at the very end so a run's last screen says what failed. */
  failures?: string[];
}

function report(tiers: Record<string, TierCounts | undefined>) {
  const ran = Object.entries(tiers).filter((e): e is [string, TierCounts] => e[1] !== undefined);
  const failures = ran.flatMap(([name, t]) => (t.failures ?? []).map((f) => `[${name}] ${f}`));
  if (failures.length) console.log(`\nwhat failed:\n${failures.join("\n")}`);
  const passed = ran.reduce((n, [, t]) => n + t.passed, 0);
  const failed = ran.reduce((n, [, t]) => n + t.failed, 0);
  console.log(`\n${ran.map(([name, t]) => `${name}: ${t.passed} passed, ${t.failed} failed`).join("; ")}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed || !passed ? 1 : 0;
}

/** Where the integration tier's time went: the slowest files. */
function timings(results: FileResult[], wallMs: number) {
  const sorted = [...results].sort((a, b) => b.ms - a.ms);
  const busy = results.reduce((n, r) => n + r.ms, 0);
  console.log(`\nintegration: ${(wallMs / 1000).toFixed(0)} s wall for ${(busy / 1000).toFixed(0)} s of files; the slowest:`);
  for (const r of sorted.slice(0, 8)) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}`);
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/** When each stage of a run ended, from its start: printed at the end, to show where a slow run's time went. */
const stages: string[] = [];
let runStarted = 0;
const stageDone = (name: string) => stages.push(`${name} ${seconds(runStarted)}`);

async function main() {
  const started = performance.now();
  runStarted = started;
  const args = parseArgs(process.argv.slice(2));
  const chosen = selection(args);
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-results-"));
  const needsApp = args.serve || chosen.integration.length > 0 || chosen.browser.length > 0;

  const served = args.serve ? undefined : await servedApp();
  if (served) console.log(`against the served app at ${served.CASTLINE_URL} (restart \`npm test -- --serve\` after changing app code)`);

  const dataDir = served ? "" : fs.mkdtempSync(path.join(os.tmpdir(), "castline-test-"));
  // Before anything reads the configuration (ensurePrograms does): it is read once, and the
  // suite's database must be this fresh one, not ./data's.
  if (!served) process.env.DATA_DIR = dataDir;
  // The unit tier runs meanwhile: it needs neither the build nor the database.
  const needsDatabase = needsApp || chosen.database.length > 0;
  const database =
    needsDatabase && !served
      ? (async () => {
          // The integration tier's WebRTC test runs a browser too, in a network namespace of its own.
          const integration = chosen.integration.length || args.serve;
          ensurePrograms([FFMPEG, ...(chosen.browser.length || args.serve ? [CHROMIUM] : []), ...(integration ? [NGINX, IPROUTE, CHROMIUM_WEBRTC] : [])]);
          const stop = await setupDatabase();
          await closeDb();
          stageDone("database up");
          return stop;
        })()
      : undefined;
  // The build and the database tier (which needs no build) side by side.
  const preparing = needsApp && !served ? database!.then(() => buildIfNeeded(root)).then(() => stageDone("built")) : undefined;
  const databaseTested = args.serve
    ? undefined
    : served
      ? databaseTier(chosen.database, served, outDir, args.namePattern)
      : database?.then(() => databaseTier(chosen.database, process.env, outDir, args.namePattern));
  const typechecked =
    args.serve || args.words.length ? undefined : (preparing ?? Promise.resolve()).then(() => typecheckTier(outDir)).finally(() => stageDone("typecheck"));
  const unit = args.serve ? undefined : await unitTier(chosen.unit, outDir, args.namePattern);
  await preparing;
  const stopDatabase = await database;
  const db = await databaseTested;
  if (!needsApp) {
    await stopDatabase?.();
    const code = report({ unit, database: db });
    if (dataDir && !code && !process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  }

  const own = served ? undefined : await startAppUnderTest(dataDir);
  const env = served ?? own!.env;
  if (own) stageDone("app up");

  if (args.serve) {
    fs.writeFileSync(SERVED, JSON.stringify({ env: own!.forTests }), { mode: 0o600 });
    console.log(`Serving the app under test at ${env.CASTLINE_URL}: \`npm test -- <word>\` runs against it. Ctrl-C to stop.`);
    const stop = async () => {
      fs.rmSync(SERVED, { force: true });
      await own!.app.stop();
      await stopDatabase?.();
      process.exit(0);
    };
    process.on("SIGINT", () => void stop());
    process.on("SIGTERM", () => void stop());
    return;
  }

  const tiersStarted = performance.now();
  let browserDone = false;
  // The machine's spare room: an integration file more while it has some.
  const idle = idleMeter(IDLE_WINDOW_S);
  const [integration, browser, typecheck] = await Promise.all([
    integrationTier(chosen.integration, env, outDir, () => browserDone, idle, args.namePattern).finally(() => stageDone("integration (shared)")),
    browserTier(chosen.browser, env, outDir, !args.words.length || args.words.includes("e2e"), args.namePattern).finally(() => {
      browserDone = true;
      stageDone("browser");
    }),
    typechecked,
  ]).finally(() => idle.stop());
  // Then the files that need the machine to themselves, one at a time.
  if (integration?.alone.length) {
    integration.results.push(
      ...(await runPool({ files: integration.alone, concurrency: 1, env, outDir, namePattern: args.namePattern, known: integration.known })),
    );
    stageDone("integration (alone)");
  }
  if (integration) timings(integration.results, performance.now() - tiersStarted);
  if (!args.words.length && !args.namePattern && !process.env.CI) {
    if (integration)
      fs.writeFileSync(DURATIONS, `${JSON.stringify(Object.fromEntries(integration.results.map((r) => [r.file, Math.round(r.ms)]).sort()), null, 2)}\n`);
    if (browser && !browser.failed) {
      const times = Object.entries(browser.durations).map(([file, ms]) => [file, Math.round(ms)] as const);
      fs.writeFileSync(BROWSER_DURATIONS, `${JSON.stringify(Object.fromEntries(times.sort()), null, 2)}\n`);
    }
  }

  await own?.app.stop();
  await stopDatabase?.();
  const integrationCounts = integration && {
    passed: sum(integration.results, "passed"),
    failed: sum(integration.results, "failed"),
    failures: integration.results.flatMap((r) => r.failures),
  };
  const code = report({ typecheck, unit, database: db, integration: integrationCounts, browser });
  if (code && own) console.log(`The app's log and the suite's data are kept: ${dataDir} (app.log)`);
  else if (own && !process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`npm test took ${seconds(started)}${stages.length ? ` (stages ended at: ${stages.join(", ")})` : ""}`);
  process.exit(code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
