import { and, asc, eq, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { liveSegments, sessions } from "@/db/schema";
import { config } from "@/lib/config";
import { objects } from "@/lib/storage";
import { liveKey, SOURCE_VARIANT } from "./keys";
import type { SessionEvent } from "@/lib/media-node-protocol";

/**
 * The DVR of live sessions: the last LIVE_DVR_WINDOW_S of every session's source
 * rendition stays in the store, listed in `live_segments` with wall-clock starts, so
 * a clip of a live stream (or of a session that just ended, recorded or not) can be
 * cut by any worker. Media nodes report each segment they store; whoever receives a
 * report prunes what fell out of the window (DELETE ... RETURNING: each row, and its
 * object, is removed by exactly one app instance). After a session ends its DVR stays
 * for the window too, then the live-dvr-retire job removes it with the session's
 * whole live folder (the renditions' folders are gone already, see Broadcast.end).
 */

const windowMs = () => config().LIVE_DVR_WINDOW_S * 1000;
export const dvrSegmentKey = (s: { sessionId: string; epoch: number; file: string }) => liveKey(s.sessionId, s.epoch, `${SOURCE_VARIANT}/${s.file}`);

export async function liveSegmentStored(segment: Extract<SessionEvent, { kind: "live-segment" }>) {
  const row = {
    sessionId: segment.sessionId,
    epoch: segment.epoch,
    seq: segment.seq,
    file: segment.file,
    duration: segment.duration,
    startedAt: segment.startedAt,
  };
  // A transcoder that restarted numbers its segments again: the newer one is the one in the store.
  await db()
    .insert(liveSegments)
    .values({ ...row, createdAt: Date.now() })
    .onConflictDoUpdate({ target: [liveSegments.sessionId, liveSegments.epoch, liveSegments.seq], set: row });
  await prune(segment.sessionId, segment.startedAt + segment.duration * 1000 - windowMs());
}

/** Removes the session's segments that ended before `before` (Unix ms). */
async function prune(sessionId: string, before: number) {
  const gone = await db()
    .delete(liveSegments)
    .where(and(eq(liveSegments.sessionId, sessionId), lt(sql`${liveSegments.startedAt} + ${liveSegments.duration} * 1000`, before)))
    .returning();
  // An object left behind by a failed removal goes with the session's folder when it is retired.
  await Promise.all(
    gone.map((s) =>
      objects()
        .removePrefix(dvrSegmentKey(s))
        .catch(() => undefined),
    ),
  );
}

/**
 * The window after a session ended has passed: its DVR goes. A session that was
 * continued meanwhile (a reconnect) keeps its window; its later end retires it.
 */
export async function retireDvr(sessionId: string): Promise<"retired" | "live"> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId), columns: { isActive: true } });
  if (session?.isActive) {
    await prune(sessionId, Date.now() - windowMs());
    return "live";
  }
  await db().delete(liveSegments).where(eq(liveSegments.sessionId, sessionId));
  await objects().removePrefix(`live/${sessionId}/`);
  return "retired";
}

/** The session's DVR segments in order, with their store keys. */
export async function dvrSegments(sessionId: string) {
  const rows = await db()
    .select()
    .from(liveSegments)
    .where(eq(liveSegments.sessionId, sessionId))
    .orderBy(asc(liveSegments.startedAt), asc(liveSegments.epoch), asc(liveSegments.seq));
  return rows.map((r) => ({ ...r, key: dvrSegmentKey(r) }));
}
