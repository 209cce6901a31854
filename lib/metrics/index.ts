import type http from "node:http";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { registerClusterGauges } from "./cluster";
import { methodLabel, routeTemplate } from "./routes";

/**
 * An app instance's Prometheus metrics (GET /metrics): the process's own (prom-client's
 * defaults), its HTTP requests, and the cluster's state read from PostgreSQL at scrape time.
 * Media nodes have their own registry (./media.ts).
 */
function createAppMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerClusterGauges(registry);
  return {
    registry,
    httpRequests: new Counter({
      name: "castline_http_requests_total",
      help: "HTTP requests answered, by method, route template and status (499: the client went away first)",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "castline_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer",
      labelNames: ["method", "route"] as const,
      registers: [registry],
    }),
    viewRollups: new Histogram({
      name: "castline_view_rollup_duration_seconds",
      help: "Viewer analytics roll-ups run by this instance (lib/analytics/rollup.ts), each a transaction over what changed since the last",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
  };
}

/** One set per process: the launcher measures requests, and Next's bundle of the /metrics route reads them. */
const holder = globalThis as unknown as { __castlineMetrics?: ReturnType<typeof createAppMetrics> };

export function appMetrics() {
  return (holder.__castlineMetrics ??= createAppMetrics());
}

/** Counts and times one request of the app's HTTP server, once its answer is over. */
export function observeRequest(req: http.IncomingMessage, res: http.ServerResponse) {
  const started = performance.now();
  res.once("close", () => {
    const method = methodLabel(req.method);
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const route = routeTemplate(method, q < 0 ? url : url.slice(0, q), res.getHeader("content-type") as string | undefined);
    const series = seriesOf(method, route, res.writableFinished ? res.statusCode : 499);
    series.requests.inc();
    series.duration.observe((performance.now() - started) / 1000);
  });
}

/**
 * The labelled series of a method, route and status, looked up once: prom-client hashes a label
 * object on every call, a cost the busiest path (a player's requests) would pay per request.
 */
const series = new Map<string, { requests: Counter.Internal; duration: Histogram.Internal<"method" | "route"> }>();

function seriesOf(method: string, route: string, status: number) {
  const key = `${method} ${route} ${status}`;
  let found = series.get(key);
  if (!found) {
    const { httpRequests, httpDuration } = appMetrics();
    found = { requests: httpRequests.labels({ method, route, status }), duration: httpDuration.labels({ method, route }) };
    series.set(key, found);
  }
  return found;
}
