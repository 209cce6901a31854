import fs from "node:fs";
import http from "node:http";
import { closeDb } from "@/db/client";
import { config } from "@/lib/config";
import { askLauncherForChangesSeen } from "@/lib/delivery/own-writes";
import { NodeHeaders, servingRequest } from "@/lib/origin";
import { dropOutputWithoutReader } from "@/lib/process-output";
import { exitWithLauncherWhileStarting, serveLauncher } from "./children";

/**
 * Next.js (the API, the dashboard, the player pages) in a process of its own, a child of the
 * launcher (scripts/start.ts), whose front answers viewers itself and hands everything else here
 * over a unix socket only this user can open (NEXT_SOCKET, scripts/next-proxy.ts). Apart, because
 * Next changes the process it runs in for every request there (async context on every promise, its
 * own process.nextTick and Date.now, a heap many times the front's): the viewer plane pays none of it.
 * The launcher sets the environment (DATABASE_URL, the secrets, APP_URL) before starting it.
 */
async function main() {
  exitWithLauncherWhileStarting();
  dropOutputWithoutReader();
  const socketPath = process.env.NEXT_SOCKET;
  if (!socketPath) throw new Error("NEXT_SOCKET is not set: the launcher (npm start) runs this");
  const cfg = config();
  const { default: next } = await import("next");
  // Without the front's port, Next.js builds request URLs as http://localhost:3000 whatever it listens on.
  const app = next({ dev: process.env.NODE_ENV === "development", dir: process.cwd(), port: Number(new URL(cfg.APP_URL!).port), hostname: cfg.HOST });
  await app.prepare();
  const handle = app.getRequestHandler();
  askLauncherForChangesSeen();

  // The front has applied its timeouts and limits; here a request lasts as long as its client's at the front.
  const server = http.createServer({ requestTimeout: 0, keepAliveTimeout: 0 }, (req, res) => {
    // URLs handed out while answering are at the origin the request came to (without PUBLIC_URL).
    servingRequest(new NodeHeaders(req.headers), () => void handle(req, res));
  });
  fs.rmSync(socketPath, { force: true }); // one a crashed predecessor left
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
    await closeDb();
    process.exit(0);
  };
  // A terminal's Ctrl-C reaches the whole process group: the launcher stops this one last, in order
  // (the media node's last reports go through it).
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => void shutdown());
  serveLauncher({}, shutdown);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
