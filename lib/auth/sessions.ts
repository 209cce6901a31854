import { randomUUID } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { endedSessions, users } from "@/db/schema";
import type { Role } from "@/lib/users/schema";

/**
 * A dashboard session lasts this long after its last use: every use re-issues its cookie
 * (Auth.js's JWT strategy) with a new expiry.
 */
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/** What a session cookie carries besides Auth.js's own claims (`sub` is the user's id). */
export interface SessionClaims {
  /** This session's id, kept through every re-issue of its cookie: signing out ends it by this. */
  sid: string;
  /** The account's session version when the session began (users.sessionVersion). */
  sv: number;
}

export const newSessionClaims = (sessionVersion: number): SessionClaims => ({ sid: randomUUID(), sv: sessionVersion });

/**
 * Whether a session cookie still stands, and its user's role: one indexed read, on every use
 * of the cookie (an API call, a dashboard page). It falls with a sign-out of that session,
 * and with every session of the account when its version was raised (a password reset).
 * Cookies issued before sessions had ids are refused (signed out once).
 */
export async function liveSession(token: { sub?: string; sid?: unknown; sv?: unknown }): Promise<{ role: Role } | undefined> {
  if (!token.sub || typeof token.sid !== "string" || typeof token.sv !== "number") return undefined;
  const [row] = await db()
    .select({
      version: users.sessionVersion,
      role: users.role,
      ended: sql<boolean>`exists (select 1 from ${endedSessions} where ${endedSessions.id} = ${token.sid})`,
    })
    .from(users)
    .where(eq(users.id, token.sub));
  return row && row.version === token.sv && !row.ended ? { role: row.role } : undefined;
}

/**
 * Signing out ends this session, on every copy of its cookie. It is remembered until the
 * last copy would have expired by itself: a copy re-issued before now lasts at most
 * SESSION_MAX_AGE_S, and after now none can be re-issued.
 */
export async function endSession(sid: unknown) {
  if (typeof sid !== "string") return;
  const now = Date.now();
  await db().delete(endedSessions).where(lt(endedSessions.expiresAt, now));
  await db()
    .insert(endedSessions)
    .values({ id: sid, expiresAt: now + SESSION_MAX_AGE_S * 1000 })
    .onConflictDoNothing();
}
