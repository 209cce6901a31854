import autocannon from "autocannon";
import { startListening } from "./listening";

/**
 * GET /api/stream/{id} and POST /api/stream through the production app, next to
 * a bare node:http server doing the same key lookup and query (bench/bare-server.ts),
 * in the same run on the same database. 50 connections each.
 */
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(opts: { url: string; method: "GET" | "POST"; key: string; body?: string }): Promise<Figures> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${opts.key}`, "content-type": "application/json" },
    body: opts.body,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export async function benchApi(ctx: { appUrl: string; key: string; streamId: string; env: NodeJS.ProcessEnv }) {
  const bare = await startListening("bench/bare-server.ts", [], ctx.env);
  const body = JSON.stringify({ name: "bench", profiles: [{ name: "360p", width: 640, height: 360, bitrate: 800000, fps: 30 }] });
  const rows: [string, Figures, Figures][] = [];
  try {
    for (const [label, method, path] of [
      ["GET /api/stream/{id}", "GET", `/api/stream/${ctx.streamId}`],
      ["POST /api/stream", "POST", "/api/stream"],
    ] as const) {
      // warm both servers so JIT and connection pools are ready
      await load({ url: ctx.appUrl + path, method, key: ctx.key, body }).catch(() => undefined);
      const app = await load({ url: ctx.appUrl + path, method, key: ctx.key, body });
      const base = await load({ url: bare.url + path, method, key: ctx.key, body });
      rows.push([label, app, base]);
    }
  } finally {
    bare.stop();
  }
  console.log(`\nAPI (${CONNECTIONS} connections, ${DURATION_S} s each; latency in ms)`);
  console.log("endpoint               | app req/s | p50 | p99 | bare req/s | p50 | p99 | ratio | errors");
  for (const [label, app, base] of rows) {
    console.log(
      `${label.padEnd(22)} | ${app.rps.toFixed(0).padStart(9)} | ${app.p50} | ${app.p99} | ${base.rps.toFixed(0).padStart(10)} | ${base.p50} | ${base.p99} | ${(app.rps / base.rps).toFixed(2)} | ${app.errors + base.errors}`,
    );
  }
  return rows;
}
