import fs from "node:fs";
import path from "node:path";
import { closeDb } from "@/db/client";
import { config } from "@/lib/config";
import { usePrivateDataDir } from "@/lib/data-dir";
import { dropOutputWithoutReader } from "@/lib/process-output";
import { ensureSecret } from "@/lib/secrets";
import { answer, startFront } from "./front";

/**
 * `npm run edge`: the delivery plane on its own, for operators who want viewers and the API apart
 * (another machine, another scaling group, behind the CDN): what players fetch (/hls, /asset,
 * /recordings, /ipfs) and /metrics, on EDGE_PORT, nothing else. It runs with the deployment's own
 * environment: its PostgreSQL (DATABASE_URL: an edge has no database of its own), its AUTH_SECRET
 * (playback tokens, the dashboard's session) and its store (S3_*, or the DATA_DIR it shares with
 * the app on one machine). It follows changes as every instance does (lib/delivery/content.ts).
 */
async function main() {
  (process.env as Record<string, string>).NODE_ENV = "production";
  dropOutputWithoutReader();
  usePrivateDataDir();
  const cfg = config();
  if (!cfg.DATABASE_URL) fail("DATABASE_URL is not set: an edge serves an existing deployment, and needs its PostgreSQL");
  // The app's secret, never a new one: tokens it handed out must check here.
  if (!cfg.AUTH_SECRET && !fs.existsSync(path.join(cfg.dataDir, "auth-secret"))) {
    fail(`AUTH_SECRET is not set and ${cfg.dataDir} holds none: give the edge the app's AUTH_SECRET`);
  }
  ensureSecret("AUTH_SECRET", cfg.dataDir);

  const front = await startFront(cfg.EDGE_PORT, cfg.HOST, (_req, res) => {
    answer(res, 404, "not found: this is Castline's delivery edge, which serves playback only (the API and the dashboard are at the app)");
  });
  console.log(`Castline edge listening on http://${cfg.HOST === "0.0.0.0" ? "localhost" : cfg.HOST}:${front.port}`);

  const shutdown = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    front.server.closeAllConnections();
    await new Promise((resolve) => front.server.close(resolve));
    await front.stop();
    await closeDb();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
