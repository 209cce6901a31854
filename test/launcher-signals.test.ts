import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { spawnTied } from "@/lib/tied-process";
import { createScratchDatabase } from "./support/database";
import { until } from "./support/media";
import { alive, descendants } from "./support/processes";

/**
 * `npm start` told to stop (SIGTERM from a supervisor, Ctrl-C's SIGINT) at any moment stops in
 * order: exit code 0, having said so, and nothing it started left running. Its own app each
 * (a scratch database, its own DATA_DIR), started by hand to catch the moments before it listens.
 */
async function startLauncher() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-signals-"));
  const env = { ...process.env, DATABASE_URL: await createScratchDatabase(), DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", MEDIA_NODE: "false" };
  const child = spawnTied(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] }, "SIGTERM");
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal!)));
  return { child, dataDir, exited, output: () => output };
}

async function expectOrderlyStop(app: Awaited<ReturnType<typeof startLauncher>>, below: number[]) {
  const outcome = await Promise.race([app.exited, new Promise((r) => setTimeout(() => r("still running after 60 s"), 60_000).unref())]);
  if (outcome === "still running after 60 s") app.child.kill("SIGKILL");
  assert.equal(outcome, 0, `exits 0 once stopped in order:\n${app.output()}`);
  assert.match(app.output(), /SIGTERM: shutting down/);
  await until("every process it started to end", async () => below.every((p) => !alive(p)), 30_000);
  fs.rmSync(app.dataDir, { recursive: true, force: true });
}

const waitForOutput = (child: ChildProcess, pattern: RegExp) =>
  new Promise<void>((resolve) => {
    let seen = "";
    const onData = (c: Buffer) => {
      seen += c;
      if (!pattern.test(seen)) return;
      child.stdout!.off("data", onData);
      resolve();
    };
    child.stdout!.on("data", onData);
  });

test("SIGTERM while starting (its job worker started, Next.js not yet ready) stops what started, in order", async () => {
  const app = await startLauncher();
  // Started at once in the job worker's place: Next.js comes after it and takes seconds to be ready.
  const isWorker = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("worker.ts");
    } catch {
      return false; // ended meanwhile
    }
  };
  const below = await until("its job worker to start", async () => descendants(app.child.pid!).some(isWorker) && descendants(app.child.pid!), 60_000, 20);
  assert.doesNotMatch(app.output(), /listening on/, "still starting");
  app.child.kill("SIGTERM");
  await expectOrderlyStop(app, [...below, ...descendants(app.child.pid!)]);
});

test("SIGTERM the moment it says it listens is not lost (a supervisor's health check and stop)", async () => {
  const app = await startLauncher();
  // Sent from the handler that reads the line, as fast as a process can answer it.
  await waitForOutput(app.child, /listening on/);
  app.child.kill("SIGTERM");
  const below = descendants(app.child.pid!);
  assert.ok(below.length >= 2, "a job worker and Next.js run below it");
  await expectOrderlyStop(app, below);
});
