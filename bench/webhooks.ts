import http from "node:http";
import type { AddressInfo } from "node:net";
import { serializeTask, spawnTask } from "@/lib/tasks/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import { createWebhook } from "@/lib/webhooks/service";

/**
 * Events fanned out to 2 webhooks on a local receiver, through the app's built-in
 * job driver (its JOB_WORKERS processes). Latency runs from the event's creation
 * to the receiver reading the body.
 * - burst: 1,000 events emitted as fast as possible: deliveries per second;
 * - paced: events at a steady rate (100/s = 200 deliveries/s for 10 s): latency
 *   when the offered load is the target rate.
 */
const WEBHOOKS = 2;
const BURST_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const PACED_PER_SECOND = 100;
const PACED_SECONDS = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function receiver() {
  let latencies: number[] = [];
  let lastAt = 0;
  let expected = Infinity;
  let onDone = () => {};
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      lastAt = Date.now();
      latencies.push(lastAt - JSON.parse(body).createdAt);
      res.end("ok");
      if (latencies.length >= expected) onDone();
    });
  });
  return {
    server,
    /** Resolves with the latencies once `n` deliveries arrived (or after 3 minutes). */
    expect(n: number) {
      latencies = [];
      expected = n;
      return new Promise<{ latencies: number[]; lastAt: number }>((resolve) => {
        const timer = setTimeout(() => onDone(), 180_000);
        onDone = () => {
          clearTimeout(timer);
          resolve({ latencies: latencies.sort((a, b) => a - b), lastAt });
        };
      });
    },
  };
}

export async function benchWebhooks(ctx: { userId: string }) {
  const rx = receiver();
  await new Promise<void>((r) => rx.server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(rx.server.address() as AddressInfo).port}/hook`;
  for (let i = 0; i < WEBHOOKS; i++) await createWebhook(ctx.userId, { name: `bench ${i}`, url, events: ["task.updated"] });
  // A real event's body: a task's is small and needs no broadcast.
  const task = serializeTask(await spawnTask({ userId: ctx.userId, type: "import", params: {} }));
  const notify = (_n: number) => notifyWebhooks(ctx.userId, "task.updated", { payload: { task } });

  const burstDone = rx.expect(BURST_EVENTS * WEBHOOKS);
  const started = Date.now();
  for (let i = 0; i < BURST_EVENTS; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, BURST_EVENTS - i) }, (_, j) => notify(i + j)));
  }
  const burst = await burstDone;
  const burstSeconds = (burst.lastAt - started) / 1000;

  const pacedEvents = PACED_PER_SECOND * PACED_SECONDS;
  const pacedDone = rx.expect(pacedEvents * WEBHOOKS);
  const pacedStart = Date.now();
  for (let i = 0; i < pacedEvents; i++) {
    await sleep(pacedStart + (i * 1000) / PACED_PER_SECOND - Date.now());
    void notify(i);
  }
  const paced = await pacedDone;
  rx.server.close();

  console.log(`\nWebhooks (${WEBHOOKS} webhooks on a local receiver, built-in driver)`);
  console.log(
    `burst: ${burst.latencies.length}/${BURST_EVENTS * WEBHOOKS} deliveries in ${burstSeconds.toFixed(1)} s = ${(burst.latencies.length / burstSeconds).toFixed(0)} deliveries/s ` +
      `(event-to-delivery p50 ${percentile(burst.latencies, 50)} ms, p99 ${percentile(burst.latencies, 99)} ms, queueing included)`,
  );
  console.log(
    `paced at ${PACED_PER_SECOND * WEBHOOKS} deliveries/s for ${PACED_SECONDS} s: ${paced.latencies.length}/${pacedEvents * WEBHOOKS} delivered; ` +
      `event-to-delivery p50 ${percentile(paced.latencies, 50)} ms, p99 ${percentile(paced.latencies, 99)} ms`,
  );
}
