import { errorResponse } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { appMetrics } from "@/lib/metrics";
import { metricsAnswer } from "@/lib/metrics/expose";

export const dynamic = "force-dynamic";

/** Prometheus scrapes this instance here (Authorization: Bearer <METRICS_TOKEN>). */
export async function GET(req: Request) {
  const token = config().METRICS_TOKEN;
  if (!token) return errorResponse(404, ["metrics are off: METRICS_TOKEN is not set"]);
  const { status, headers, body } = await metricsAnswer(appMetrics().registry, req.headers.get("authorization"), token);
  return new Response(body, { status, headers });
}
