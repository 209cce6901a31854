import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: a received body is what the test asserts on
  json: Record<string, any>;
}

/**
 * A real HTTP receiver for webhook deliveries. `answers` gives the status of
 * each request in turn (the last repeats); `onRequest` sees each as it arrives.
 */
export async function startReceiver(opts: { answers?: number[]; port?: number; onRequest?: (r: Received) => void } = {}) {
  const received: Received[] = [];
  const answers = opts.answers ?? [200];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const r: Received = { at: Date.now(), headers: req.headers, body, json: safeJson(body) };
      received.push(r);
      opts.onRequest?.(r);
      const status = answers[Math.min(received.length - 1, answers.length - 1)];
      res.writeHead(status, { "content-type": "text/plain" }).end(`answer ${status}`);
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** Resolves once `n` requests have arrived, or rejects after `ms`. */
    async waitFor(n: number, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${received.length} in ${ms} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function safeJson(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
