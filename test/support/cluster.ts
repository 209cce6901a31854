import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess, type AppProcess } from "../../scripts/app-process";
import { createScratchDatabase } from "./database";
import { until } from "./media";
import { startS3 } from "./s3";

/**
 * Castline as compose.yaml lays it out, as real processes on this machine with no
 * directory shared between them: one PostgreSQL (a scratch database on the suite's
 * server), one S3-compatible bucket (s3rver), app instances (`npm start` with
 * MEDIA_NODE=false) and media nodes (`npm run media`), each with its own DATA_DIR.
 */
/** A process of the cluster; crash() is kill -9: it vanishes mid-whatever, as a crashed machine does (its ffmpeg children with it). */
export interface ProgramProcess {
  child: ChildProcess;
  output(): string;
  crash(): Promise<void>;
  stop(): Promise<void>;
}

export interface MediaNodeProcess extends ProgramProcess {
  rtmpPort: number;
  dataDir: string;
}

export interface Cluster {
  apps: AppProcess[];
  nodes: MediaNodeProcess[];
  /** Every process's environment (one env file serves all). */
  env: NodeJS.ProcessEnv;
  s3Dir: string;
  appDataDirs: string[];
  stop(): Promise<void>;
}

export async function startCluster(opts: { apps: number; nodes: number; env?: Record<string, string> }): Promise<Cluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "castline-cluster-"));
  const s3Dir = path.join(root, "s3");
  const s3 = await startS3(s3Dir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    PUBLIC_URL: undefined,
    APP_URL: undefined,
    DATABASE_URL: await createScratchDatabase(),
    S3_ENDPOINT: s3.url,
    S3_BUCKET: "castline",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    AUTH_SECRET: randomBytes(32).toString("hex"),
    MEDIA_SECRET: randomBytes(32).toString("hex"),
    ...opts.env,
  };
  const appDataDirs: string[] = [];
  const apps: AppProcess[] = [];
  const nodes: MediaNodeProcess[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await Promise.all(apps.map((a) => a.stop()));
    await s3.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    // The instances start side by side (they migrate the database once, under a lock).
    for (let i = 0; i < opts.apps; i++) {
      const dataDir = path.join(root, `app-${i + 1}`);
      fs.mkdirSync(dataDir);
      appDataDirs.push(dataDir);
    }
    await startAll(
      apps,
      appDataDirs.map((dataDir) => () => startAppProcess({ ...env, PORT: "0", DATA_DIR: dataDir, MEDIA_NODE: "false" })),
    );
    for (let i = 0; i < opts.nodes; i++) {
      // Each node reports to a different instance: any of them will do. One at a time: a node
      // has 30 s to say it is ready, and two starting at once on a busy machine missed it.
      const app = apps[i % apps.length];
      nodes.push(await startMediaNodeProcess({ ...env, APP_URL: app.url }, path.join(root, `node-${i + 1}`)));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { apps, nodes, env, s3Dir, appDataDirs, stop };
}

/** Starts processes at once, in order into `into`; the first failure once all have settled (the started ones stay in `into`, to be stopped). */
async function startAll<T>(into: T[], starts: (() => Promise<T>)[]) {
  const settled = await Promise.allSettled(starts.map((start) => start()));
  for (const s of settled) if (s.status === "fulfilled") into.push(s.value);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
}

export async function startMediaNodeProcess(env: NodeJS.ProcessEnv, dataDir: string): Promise<MediaNodeProcess> {
  const rtmpPort = await freePort();
  const program = await startProgram("scripts/media.ts", {
    env: { ...env, RTMP_HOST: "127.0.0.1", RTMP_PORT: String(rtmpPort), MEDIA_PUBLIC_HOST: `127.0.0.1:${rtmpPort}` },
    dataDir,
    readyWhen: "RTMP on",
    name: "media node",
  });
  return { rtmpPort, dataDir, ...program };
}

/** A job worker (`npm run worker`) of the cluster, with its own scratch DATA_DIR. */
export const startWorkerProcess = (env: NodeJS.ProcessEnv, dataDir: string): Promise<ProgramProcess> =>
  startProgram("scripts/worker.ts", { env, dataDir, readyWhen: "worker running", name: "worker" });

/** One of Castline's programs as a process of its own, ready once its output says `readyWhen`. */
async function startProgram(script: string, opts: { env: NodeJS.ProcessEnv; dataDir: string; readyWhen: string; name: string }): Promise<ProgramProcess> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...opts.env, DATA_DIR: opts.dataDir }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await until(`the ${opts.name} ready`, async () => output.includes(opts.readyWhen) || child.exitCode !== null, 30_000);
  if (child.exitCode !== null) throw new Error(`${opts.name} exited: ${output}`);
  return {
    child,
    output: () => output,
    async crash() {
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
