import { and, eq, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { bodyPrefix } from "@/lib/bounded-body";
import { newId } from "@/lib/ids";
import type { WebhookEventData } from "@/lib/jobs/events";
import { guardedRequest, PrivateAddressError } from "@/lib/net/guard";
import type { WebhookEvent } from "./events";
import { signatureHeaders } from "./signature";

/** What an event carries to each subscribed webhook; the id stays the same on every retry. */

export interface AttemptResult {
  ok: boolean;
  /** Worth trying again later: network errors, timeouts, 5xx, 408, 429. */
  retriable: boolean;
  status?: number;
  error?: string;
}

const TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the log keeps. */
export const RESPONSE_PREFIX = 1024;
/** Waits between attempts: the first retry within seconds, the whole series past 15 minutes. */
export const RETRY_SCHEDULE = ["1s", "5s", "30s", "2m", "5m", "10m"] as const;

const isRetriableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/** One signed POST of an event to one webhook, logged whatever happens. */
export async function attemptDelivery(webhookId: string, data: WebhookEventData): Promise<AttemptResult> {
  const hook = await db().query.webhooks.findFirst({ where: and(eq(webhooks.id, webhookId), eq(webhooks.userId, data.userId)) });
  if (!hook) return { ok: false, retriable: false, error: "webhook deleted" };

  const timestamp = Date.now();
  const body = JSON.stringify({
    id: data.eventId,
    webhookId,
    createdAt: data.createdAt,
    timestamp,
    event: data.event,
    userId: data.userId,
    ...(data.stream ? { stream: data.stream } : {}),
    payload: data.payload,
  });
  const headers = {
    "content-type": "application/json",
    "user-agent": "Castline-Webhooks/1.0",
    "castline-event-id": data.eventId,
    ...signatureHeaders(hook.sharedSecret, body, timestamp),
  };

  const started = performance.now();
  let result: AttemptResult;
  let responseBody: string | undefined;
  try {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    const res = await guardedRequest(hook.url, { method: "POST", headers, body, timeoutMs: TIMEOUT_MS, signal });
    // What the receiver says is logged (its start); the rest is not read.
    responseBody = (await bodyPrefix(res, RESPONSE_PREFIX)).toString("utf8");
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) result = { ok: true, retriable: false, status };
    else if (status >= 300 && status < 400) result = { ok: false, retriable: false, status, error: "redirects are not followed" };
    else result = { ok: false, retriable: isRetriableStatus(status), status, error: `receiver answered ${status}` };
  } catch (err) {
    const aborted = err instanceof Error && err.name === "AbortError";
    const message = aborted ? `timed out after ${TIMEOUT_MS / 1000} s` : err instanceof Error ? err.message : String(err);
    result = { ok: false, retriable: !(err instanceof PrivateAddressError), error: message };
  }
  const durationMs = performance.now() - started;

  await recordAttempt({
    webhookId,
    userId: data.userId,
    eventId: data.eventId,
    event: data.event,
    url: hook.url,
    requestHeaders: headers,
    requestBody: body,
    responseStatus: result.status,
    responseBody,
    durationMs,
    success: result.ok,
    error: result.error,
    createdAt: timestamp,
  });
  return result;
}

/** One attempt as the delivery log shows it; the request as sent, but without secrets of a viewer. */
export interface Attempt {
  webhookId: string;
  userId: string;
  eventId: string;
  event: WebhookEvent;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseStatus?: number;
  /** The start of what the receiver answered (RESPONSE_PREFIX bytes at most). */
  responseBody?: string;
  durationMs: number;
  success: boolean;
  error?: string;
  createdAt: number;
}

/**
 * Logs an attempt (GET /webhook/{id}/log, the dashboard's webhook page) and keeps the webhook's
 * status: every call to a receiver, event deliveries and playback access checks alike.
 */
export async function recordAttempt(attempt: Attempt): Promise<void> {
  const { createdAt: timestamp } = attempt;
  const log = db()
    .insert(webhookDeliveries)
    .values({
      id: newId(),
      ...attempt,
      responseStatus: attempt.responseStatus ?? null,
      responseBody: attempt.responseBody ?? null,
      error: attempt.error ?? null,
    });
  // Attempts may finish out of order: the newest attempt decides the webhook's status.
  const newest = sql`${timestamp} >= coalesce(${webhooks.lastTriggeredAt}, 0)`;
  const failure = attempt.success
    ? null
    : {
        timestamp,
        ...(attempt.responseStatus ? { statusCode: attempt.responseStatus } : {}),
        ...(attempt.error ? { error: attempt.error } : {}),
        ...(attempt.responseBody ? { response: attempt.responseBody } : {}),
      };
  const status = db()
    .update(webhooks)
    .set({
      lastTriggeredAt: sql`greatest(coalesce(${webhooks.lastTriggeredAt}, 0), ${timestamp})`,
      ...(failure ? { lastFailure: sql`CASE WHEN ${newest} THEN ${JSON.stringify(failure)}::jsonb ELSE ${webhooks.lastFailure} END` } : {}),
    })
    .where(eq(webhooks.id, attempt.webhookId));
  await Promise.all([log, status]);
}
