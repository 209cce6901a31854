import { createHash } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { db } from "@/db/client";
import { playbackAdmissions } from "@/db/schema";
import { discardBody } from "@/lib/bounded-body";
import { config } from "@/lib/config";
import { guardedRequest } from "@/lib/net/guard";
import { findWebhookRow } from "@/lib/webhooks/service";
import { signatureHeaders } from "@/lib/webhooks/signature";
import { DEFAULT_REFRESH_INTERVAL_S, type PlaybackPolicy } from "./schema";

export type WebhookVerdict = { admitted: true; ttlS: number } | { admitted: false; reason: string };

/** Checks of the same access key for the same content while one is under way share it. */
const inFlight = new Map<string, Promise<WebhookVerdict>>();

/**
 * A webhook policy's answer for a viewer's access key: the owner's webhook is asked (a
 * signed POST of the key, the policy's context and the playback id); a 2xx admits, for
 * refreshInterval, on every app instance (PostgreSQL keeps the admission, by a hash of the
 * key). Anything else, or no answer within ACCESS_WEBHOOK_TIMEOUT_MS, denies, uncached: a
 * viewer who just paid is let in on the next try.
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
  if (!hook) return { admitted: false, reason: "the access webhook of this content no longer exists" };
  const verdict = await ask(hook, policy, playbackId, accessKey);
  if (!verdict.admitted) return verdict;

  const expiresAt = Date.now() + verdict.ttlS * 1000;
  await db().insert(playbackAdmissions).values({ key, expiresAt }).onConflictDoUpdate({ target: playbackAdmissions.key, set: { expiresAt } });
  // Expired admissions go now and then, by whichever instance admits someone.
  if (Math.random() < 0.01) await db().delete(playbackAdmissions).where(lt(playbackAdmissions.expiresAt, now));
  return verdict;
}

async function ask(hook: { url: string; sharedSecret: string; id: string }, policy: PlaybackPolicy, playbackId: string, accessKey: string): Promise<WebhookVerdict> {
  const timeoutMs = config().ACCESS_WEBHOOK_TIMEOUT_MS;
  const timestamp = Date.now();
  // Livepeer's receivers read accessKey and context; the playback id says which content.
  const body = JSON.stringify({
    event: "playback.accessControl",
    webhookId: hook.id,
    timestamp,
    accessKey,
    context: policy.webhookContext ?? {},
    playbackId,
  });
  const headers = {
    "content-type": "application/json",
    "user-agent": "Castline-Webhooks/1.0",
    ...signatureHeaders(hook.sharedSecret, body, timestamp),
  };
  try {
    const res = await guardedRequest(hook.url, { method: "POST", headers, body, timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    discardBody(res); // the status is the answer
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) return { admitted: true, ttlS: policy.refreshInterval ?? DEFAULT_REFRESH_INTERVAL_S };
    return { admitted: false, reason: `the access webhook refused this access key (${status})` };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError" || /timed out/.test(err.message));
    return { admitted: false, reason: timedOut ? "the access webhook did not answer in time" : "the access webhook could not be reached" };
  }
}
