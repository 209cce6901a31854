import http from "node:http";
import autocannon from "autocannon";

/**
 * The loads the playback sections (origin, access, delivery) put on a URL, and what they read off it.
 * Small bodies (playlists) are loaded by autocannon; big ones (segments) by a node:http client
 * (N keep-alive connections, each requesting again as soon as the last body is read), since
 * autocannon parses bodies in JavaScript and tops out at ~40-60 MB/s here, below every server measured.
 */
export const CONNECTIONS = 32;
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 6);
/** JIT, connection pools, the OS page cache: each measurement runs this long first, unrecorded. */
export const WARM_S = 2;

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  mbps: number;
  errors: number;
}

export type Load = (url: string, duration?: number, connections?: number) => Promise<Figures>;

export const load: Load = async (url, duration = DURATION_S, connections = CONNECTIONS) => {
  const r = await autocannon({ url, connections, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mbps: r.throughput.average / 1e6, errors: r.errors + r.non2xx };
};

/** `connections` keep-alive connections fetching whole bodies back to back, through llhttp. */
export const loadBodies: Load = async (url, duration = DURATION_S, connections = CONNECTIONS) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + duration * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      http
        .get(url, { agent }, (res) => {
          if (res.statusCode !== 200) errors++;
          res.on("data", (c: Buffer) => (bytes += c.length));
          res.on("end", () => {
            latencies.push(performance.now() - t);
            resolve();
          });
          res.on("error", () => (errors++, resolve()));
        })
        .on("error", () => (errors++, resolve()));
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), mbps: bytes / 1e6 / seconds, errors };
};

/** One recorded measurement after WARM_S of the same load. */
export async function measure(url: string, how: Load, connections = CONNECTIONS): Promise<Figures> {
  await how(url, WARM_S, connections);
  return how(url, DURATION_S, connections);
}
