import { createHash, timingSafeEqual } from "node:crypto";
import type { Registry } from "prom-client";

export interface MetricsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A GET /metrics answer from a registry, for the app's route and a media node's own server:
 * the Prometheus text format when `authorization` carries the token, 401 otherwise.
 * Without a token there is no check; callers decide whether that means "off" or "open".
 */
export async function metricsAnswer(registry: Registry, authorization: string | null | undefined, token: string | undefined): Promise<MetricsAnswer> {
  if (token !== undefined && !bearerMatches(authorization, token)) {
    return failure(401, "metrics need 'Authorization: Bearer <METRICS_TOKEN>'", { "www-authenticate": 'Bearer realm="castline-metrics"' });
  }
  let body: string;
  try {
    body = await registry.metrics();
  } catch (err) {
    // The cluster gauges read PostgreSQL at scrape time: without it the scrape fails, as /api/health does.
    console.error("metrics: a collector failed:", err instanceof Error ? err.message : err);
    return failure(503, "metrics unavailable: the database does not answer");
  }
  return { status: 200, headers: { "content-type": registry.contentType, "cache-control": "no-store" }, body };
}

/** Compares digests, so neither the token's content nor its length shows in the timing. */
function bearerMatches(authorization: string | null | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function failure(status: number, message: string, headers: Record<string, string> = {}): MetricsAnswer {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ errors: [message] }) };
}
