import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { answerChangesSeen } from "@/lib/delivery/own-writes";
import { superviseChild } from "./children";
import { answer } from "./front";

/** Connection headers are the hop's own, not the request's or the answer's (the front answered any Expect). */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "upgrade", "expect"];
const ANSWER_HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding"]);

export interface NextChild {
  /** Hands a request to Next.js and its answer back. */
  proxy(req: http.IncomingMessage, res: http.ServerResponse): void;
  stop(): Promise<void>;
}

/**
 * Starts Next.js in its own process (scripts/next-server.ts), supervised (started again if it
 * dies), on a unix socket in a directory only this user can open: nobody but the front reaches it,
 * so what the front decided (the client's address, its limits) cannot be bypassed.
 */
export async function startNextChild(): Promise<NextChild> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-next-")); // mode 0700
  const socketPath = path.join(dir, "next.sock");
  const child = await superviseChild({ name: "Next.js", script: "next-server.ts", env: { NEXT_SOCKET: socketPath }, onMessage: answerChangesSeen });
  const agent = new http.Agent({ keepAlive: true });

  return {
    proxy(req, res) {
      const headers = { ...req.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      // Once the answer is over, what is left of the request is the front's to drop (scripts/front.ts).
      let over = false;
      const upstream = http.request({ socketPath, agent, method: req.method, path: req.url, headers }, (reply) => {
        // Set one by one, not given to writeHead: the front's metrics read the answer's content type.
        for (const [name, value] of Object.entries(reply.headers)) if (value !== undefined && !ANSWER_HOP_BY_HOP.has(name)) res.setHeader(name, value);
        res.writeHead(reply.statusCode ?? 502, reply.statusMessage);
        reply.pipe(res);
        reply.once("error", () => over || res.destroy());
      });
      upstream.once("error", () => {
        if (over) return;
        // Next.js is starting again (it died) or not there yet.
        if (!res.headersSent) answer(res, 503, "the app is restarting: try again in a moment", { "retry-after": "1" });
        else res.destroy();
      });
      res.once("finish", () => {
        over = true;
        if (!req.complete) {
          req.unpipe(upstream);
          upstream.destroy();
          // unpipe() paused it: the front reads and drops the rest (or cuts the connection).
          req.resume();
        }
      });
      res.once("close", () => res.writableFinished || upstream.destroy());
      req.pipe(upstream);
    },
    async stop() {
      await child.stop();
      agent.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
