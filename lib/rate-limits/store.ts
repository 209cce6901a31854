import { createHash } from "node:crypto";
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { rateLimits } from "@/db/schema";

/**
 * Fixed one-minute windows counted in PostgreSQL, so every app instance sees the same counts:
 * one atomic upsert per request (several limits in one statement). Windows are aligned to the
 * clock, so instances agree on them without talking to each other.
 */
export const WINDOW_MS = 60_000;

export interface Limit {
  /** Names the counter (and says what is limited in refusals): "API key", "address"... */
  name: string;
  perMinute: number;
}

export interface Quota {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetS: number;
  exceeded: boolean;
  /** What was counted, for the refusal's message. */
  name: string;
}

export interface Hit {
  limit: Limit;
  /** Who is counted: an address, an email, a key id. Stored hashed. */
  subject: string;
  /** How many hits to add (a batch of requests counted elsewhere); default 1. */
  hits?: number;
}

export const windowStartOf = (now: number) => Math.floor(now / WINDOW_MS) * WINDOW_MS;

export const counterKey = (limit: Limit, subject: string) => `${limit.name}:${createHash("sha256").update(subject).digest("base64url").slice(0, 22)}`;

export function quotaOf(limit: Limit, hits: number, windowStart: number, now: number): Quota {
  return {
    limit: limit.perMinute,
    remaining: Math.max(0, limit.perMinute - hits),
    resetS: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
    exceeded: hits > limit.perMinute,
    name: limit.name,
  };
}

/** Adds the hits to their counters (distinct subjects per limit) and answers each count, in order. */
export async function countHits(hits: Hit[], now = Date.now()): Promise<{ quota: Quota; total: number }[]> {
  if (!hits.length) return [];
  const windowStart = windowStartOf(now);
  const keys = hits.map((h) => counterKey(h.limit, h.subject));
  const rows = await db()
    .insert(rateLimits)
    .values(hits.map((h, i) => ({ key: keys[i], windowStart, hits: h.hits ?? 1 })))
    .onConflictDoUpdate({
      target: rateLimits.key,
      // A later window starts the count again; an instance whose clock lags adds to the current one.
      set: {
        hits: sql`CASE WHEN excluded.window_start > ${rateLimits.windowStart} THEN excluded.hits ELSE ${rateLimits.hits} + excluded.hits END`,
        windowStart: sql`GREATEST(${rateLimits.windowStart}, excluded.window_start)`,
      },
    })
    .returning({ key: rateLimits.key, hits: rateLimits.hits, windowStart: rateLimits.windowStart });
  sweepNowAndThen(now);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return hits.map((h, i) => {
    const row = byKey.get(keys[i])!;
    return { quota: quotaOf(h.limit, row.hits, row.windowStart, now), total: row.hits };
  });
}

/** Takes back one hit of the window it was counted in (a sign-in that succeeded is not a failure). */
export async function refundHits(hits: Hit[], countedAt: number) {
  if (!hits.length) return;
  await db()
    .update(rateLimits)
    .set({ hits: sql`${rateLimits.hits} - 1` })
    .where(
      and(
        inArray(
          rateLimits.key,
          hits.map((h) => counterKey(h.limit, h.subject)),
        ),
        eq(rateLimits.windowStart, windowStartOf(countedAt)),
        gt(rateLimits.hits, 0),
      ),
    );
}

const SWEEP_EVERY_MS = 5 * 60_000;
let lastSweep = 0;

/** Counters of past windows are dead weight (most addresses never come back): delete them now and then. */
function sweepNowAndThen(now: number) {
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  db()
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, windowStartOf(now) - WINDOW_MS))
    .catch((err) => console.error("sweeping rate-limit counters failed:", err.message));
}

/** The quota closest to running out (an exceeded one first): the one a client should heed. */
export function tightest(quotas: (Quota | undefined)[]): Quota | undefined {
  return quotas.reduce<Quota | undefined>((a, b) => {
    if (!b) return a;
    if (!a) return b;
    if (a.exceeded !== b.exceeded) return a.exceeded ? a : b;
    return b.remaining < a.remaining || (b.remaining === a.remaining && b.resetS > a.resetS) ? b : a;
  }, undefined);
}

/** The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), and Retry-After when refused. */
export function quotaHeaders(quota: Quota | undefined): Record<string, string> {
  if (!quota) return {};
  return {
    "ratelimit-limit": String(quota.limit),
    "ratelimit-remaining": String(quota.remaining),
    "ratelimit-reset": String(quota.resetS),
    ...(quota.exceeded ? { "retry-after": String(quota.resetS) } : {}),
  };
}
