import http from "node:http";
import type { AddressInfo } from "node:net";
import { createWebhook } from "@/lib/webhooks/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";

/**
 * 1,000 events fanned out to 2 webhooks on a local receiver, through the app's
 * built-in job driver: deliveries per second and event-to-delivery latency
 * (event creation to the receiver reading the body).
 */
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const WEBHOOKS = 2;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function benchWebhooks(ctx: { userId: string }) {
  const latencies: number[] = [];
  let lastAt = 0;
  let done: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const expected = EVENTS * WEBHOOKS;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const now = Date.now();
      latencies.push(now - JSON.parse(body).createdAt);
      lastAt = now;
      res.end("ok");
      if (latencies.length === expected) done();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  for (let i = 0; i < WEBHOOKS; i++) await createWebhook(ctx.userId, { name: `bench ${i}`, url, events: ["stream.started"] });

  const started = Date.now();
  for (let i = 0; i < EVENTS; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, EVENTS - i) }, (_, j) => notifyWebhooks(ctx.userId, "stream.started", { payload: { n: i + j } })),
    );
  }
  const emitted = Date.now();
  const timeout = setTimeout(() => done(), 120_000);
  await finished;
  clearTimeout(timeout);
  server.close();

  latencies.sort((a, b) => a - b);
  const seconds = (lastAt - started) / 1000;
  const figures = {
    deliveries: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    emitSeconds: (emitted - started) / 1000,
  };
  console.log(`\nWebhooks (${EVENTS} events x ${WEBHOOKS} webhooks, built-in driver, local receiver)`);
  console.log(
    `deliveries: ${figures.deliveries}/${expected} in ${seconds.toFixed(1)} s = ${figures.perSecond.toFixed(0)}/s; ` +
      `event-to-delivery p50 ${figures.p50} ms, p99 ${figures.p99} ms (events emitted in ${figures.emitSeconds.toFixed(1)} s)`,
  );
  return figures;
}
