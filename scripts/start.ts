import http from "node:http";
import type { AddressInfo } from "node:net";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { ensureAuthSecret } from "@/lib/auth/secret";
import { usesInngestServer } from "@/lib/jobs/mode";
import { startBackgroundWork } from "@/lib/jobs/start";
import { startJobWorkers } from "./job-workers";
import { config } from "@/lib/config";
import { buildIfNeeded } from "./build-if-needed";

/**
 * `npm start`: the one place long-running parts start. Database first (embedded
 * unless DATABASE_URL), then the web app on PORT and the background-work driver.
 */
async function main() {
  (process.env as Record<string, string>).NODE_ENV = "production";
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  const cfg = config();
  ensureAuthSecret(cfg.dataDir);
  const stopDatabase = await setupDatabase();
  buildIfNeeded();
  // Before any request can emit: the driver records which events start which functions.
  const driver =
    cfg.JOB_WORKERS > 0 && !usesInngestServer() ? await startJobWorkers(cfg.JOB_WORKERS) : await startBackgroundWork();

  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => handle(req, res));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(cfg.PORT, cfg.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  console.log(`Castline listening on http://${cfg.HOST === "0.0.0.0" ? "localhost" : cfg.HOST}:${port}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await driver?.stop();
    await closeDb();
    await stopDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
