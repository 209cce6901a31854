import { createHash } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { db } from "@/db/client";
import { playbackAdmissions } from "@/db/schema";
import { bodyPrefix } from "@/lib/bounded-body";
import { config } from "@/lib/config";
import { newId } from "@/lib/ids";
import { guardedRequest } from "@/lib/net/guard";
import { recordAttempt, RESPONSE_PREFIX } from "@/lib/webhooks/delivery";
import { ACCESS_CONTROL_EVENT } from "@/lib/webhooks/events";
import { findWebhookRow } from "@/lib/webhooks/service";
import { signatureHeaders } from "@/lib/webhooks/signature";
import type { ViewerRefusal } from "./refusal";
import { DEFAULT_REFRESH_INTERVAL_S, type PlaybackPolicy } from "./schema";

export type WebhookVerdict =
  | { admitted: true; ttlS: number }
  | { admitted: false; refusal: Extract<ViewerRefusal, "refused" | "check-unavailable">; reason: string };

/** Checks of the same access key for the same content while one is under way share it. */
const inFlight = new Map<string, Promise<WebhookVerdict>>();

/**
 * A webhook policy's answer for a viewer's access key: the owner's webhook is asked (a
 * signed POST of the key, the policy's context and the playback id); a 2xx admits, for
 * refreshInterval, on every app instance (PostgreSQL keeps the admission, by a hash of the
 * key). A 4xx (but 408 and 429) refuses; anything else (5xx, a redirect, no answer within
 * ACCESS_WEBHOOK_TIMEOUT_MS, unreachable) means the check is unavailable, which is not a refusal.
 * Neither is cached: a viewer who just paid is let in on the next try. Every check is in the
 * webhook's delivery log.
 */
export function askAccessWebhook(ownerId: string, policy: PlaybackPolicy, playbackId: string, accessKey: string): Promise<WebhookVerdict> {
  const key = createHash("sha256").update(`${policy.webhookId}\n${playbackId}\n${accessKey}`).digest("base64url");
  let verdict = inFlight.get(key);
  if (!verdict) {
    verdict = decide(key, ownerId, policy, playbackId, accessKey).finally(() => inFlight.delete(key));
    inFlight.set(key, verdict);
  }
  return verdict;
}

async function decide(key: string, ownerId: string, policy: PlaybackPolicy, playbackId: string, accessKey: string): Promise<WebhookVerdict> {
  const now = Date.now();
  const cached = await db().query.playbackAdmissions.findFirst({ where: and(eq(playbackAdmissions.key, key), gt(playbackAdmissions.expiresAt, now)) });
  if (cached) return { admitted: true, ttlS: Math.max(1, Math.floor((cached.expiresAt - now) / 1000)) };

  const hook = policy.webhookId ? await findWebhookRow(ownerId, policy.webhookId) : undefined;
  if (!hook) return unavailable("no longer exists");
  const verdict = await ask(hook, ownerId, policy, playbackId, accessKey);
  if (!verdict.admitted) return verdict;

  const expiresAt = Date.now() + verdict.ttlS * 1000;
  await db().insert(playbackAdmissions).values({ key, expiresAt }).onConflictDoUpdate({ target: playbackAdmissions.key, set: { expiresAt } });
  // Expired admissions go now and then, by whichever instance admits someone.
  if (Math.random() < 0.01) await db().delete(playbackAdmissions).where(lt(playbackAdmissions.expiresAt, now));
  return verdict;
}

async function ask(
  hook: { url: string; sharedSecret: string; id: string },
  ownerId: string,
  policy: PlaybackPolicy,
  playbackId: string,
  accessKey: string,
): Promise<WebhookVerdict> {
  const timeoutMs = config().ACCESS_WEBHOOK_TIMEOUT_MS;
  const timestamp = Date.now();
  // Livepeer's receivers read accessKey and context; the playback id says which content.
  const question = { event: ACCESS_CONTROL_EVENT, webhookId: hook.id, timestamp, accessKey, context: policy.webhookContext ?? {}, playbackId } as const;
  const body = JSON.stringify(question);
  const headers = {
    "content-type": "application/json",
    "user-agent": "Castline-Webhooks/1.0",
    ...signatureHeaders(hook.sharedSecret, body, timestamp),
  };
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  let verdict: WebhookVerdict;
  let answered: { status: number; body: Promise<string> } | undefined;
  let error: string | undefined;
  try {
    const res = await guardedRequest(hook.url, { method: "POST", headers, body, timeoutMs, signal });
    // The status is the answer; the start of the body is for the log, read off the viewer's path.
    const status = res.statusCode ?? 0;
    answered = {
      status,
      body: bodyPrefix(res, RESPONSE_PREFIX).then(
        (b) => b.toString("utf8"),
        () => "",
      ),
    };
    verdict = verdictOf(status, policy);
    if (!verdict.admitted && verdict.refusal === "check-unavailable")
      error = status >= 300 && status < 400 ? "redirects are not followed" : `receiver answered ${status}`;
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError" || /timed out/.test(err.message));
    error = timedOut ? `timed out after ${timeoutMs / 1000} s` : err instanceof Error ? err.message : String(err);
    verdict = unavailable(timedOut ? "did not answer in time" : "could not be reached");
  }
  const durationMs = performance.now() - started;
  // Logged like any delivery, off the viewer's path. The viewer's access key is a secret of theirs:
  // the log shows a fingerprint of it, which the creator can match against the keys they hand out.
  const logged = JSON.stringify({ ...question, accessKey: accessKeyFingerprint(accessKey) });
  void (async () =>
    recordAttempt({
      webhookId: hook.id,
      userId: ownerId,
      eventId: newId(),
      event: ACCESS_CONTROL_EVENT,
      url: hook.url,
      requestHeaders: headers,
      requestBody: logged,
      responseStatus: answered?.status,
      responseBody: answered && (await answered.body),
      durationMs,
      // The receiver decided (admitted or refused): the check worked.
      success: verdict.admitted || verdict.refusal === "refused",
      error,
      createdAt: timestamp,
    }))().catch((err) => console.error("access check: logging it failed:", err instanceof Error ? err.message : err));
  return verdict;
}

function verdictOf(status: number, policy: PlaybackPolicy): WebhookVerdict {
  if (status >= 200 && status < 300) return { admitted: true, ttlS: policy.refreshInterval ?? DEFAULT_REFRESH_INTERVAL_S };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429)
    return { admitted: false, refusal: "refused", reason: `the access webhook refused this access key (${status})` };
  return unavailable(status >= 300 && status < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`);
}

/** Nobody refused: the owner's receiver failed, and the viewer may well be let in later. */
const unavailable = (what: string): WebhookVerdict => ({
  admitted: false,
  refusal: "check-unavailable",
  reason: `the site's access check is unavailable (its webhook ${what}): try again later`,
});

/** What the delivery log shows of a viewer's access key. */
export const accessKeyFingerprint = (accessKey: string) => `sha256:${createHash("sha256").update(accessKey).digest("hex").slice(0, 12)}`;
