import { and, eq, inArray, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { multistreamStates, multistreamTargets, sessions } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { SessionEvent } from "@/lib/media-node-protocol";
import { findStreamRow } from "@/lib/streams/service";
import { targetHost } from "./connect";
import type { MultistreamStatus, TargetLiveState } from "./schema";

/**
 * Each multistream target's state while a stream is live, kept in PostgreSQL (any app
 * instance may take a node's report, any other may answer the owner).
 */

export type PushReport = Extract<SessionEvent, { kind: "multistream" }>;

/** ffmpeg can say a lot; the owner needs its last lines. */
const MAX_ERROR_CHARS = 1000;

/**
 * Keeps a report unless a later one of the same epoch (by `seq`), or one of a later epoch,
 * is already kept. A connecting attempt keeps the previous attempt's error, to show why it
 * is trying again; a target deleted meanwhile is not recorded.
 */
export async function recordPushState(report: PushReport) {
  const failed = report.state === "error";
  const state = failed && report.retryInMs !== undefined ? "retrying" : report.state;
  const now = Date.now();
  const error = failed ? (report.error ?? "the push failed").slice(-MAX_ERROR_CHARS) : null;
  const retryAt = failed && report.retryInMs !== undefined ? now + report.retryInMs : null;
  const kept = multistreamStates;
  await db().execute(sql`
    INSERT INTO ${kept} (session_id, target_id, epoch, seq, state, error, retry_at, updated_at)
    SELECT ${report.sessionId}, ${multistreamTargets.id}, ${report.epoch}, ${report.seq ?? null}, ${state}, ${error}, ${retryAt}, ${now}
    FROM ${multistreamTargets} WHERE ${multistreamTargets.id} = ${report.targetId}
    ON CONFLICT (session_id, target_id) DO UPDATE SET
      epoch = excluded.epoch, seq = excluded.seq, state = excluded.state, retry_at = excluded.retry_at, updated_at = excluded.updated_at,
      error = CASE WHEN excluded.state = 'connecting' AND ${kept.epoch} = excluded.epoch THEN ${kept.error} ELSE excluded.error END
    WHERE ${kept.epoch} < excluded.epoch
      OR (${kept.epoch} = excluded.epoch AND (excluded.seq IS NULL OR ${kept.seq} IS NULL OR ${kept.seq} < excluded.seq))`);
}

/** The session ended: its targets have no live state any more. */
export async function clearPushStates(sessionId: string) {
  await db().delete(multistreamStates).where(eq(multistreamStates.sessionId, sessionId));
}

/** The owner's view of a stream's targets: each one's live state while the stream is live. */
export async function multistreamStatus(userId: string, streamId: string): Promise<MultistreamStatus> {
  const stream = await findStreamRow(userId, streamId);
  if (!stream) throw notFound("stream");
  const refs = stream.multistreamTargets;
  const [session, targets] = await Promise.all([
    db().query.sessions.findFirst({ where: and(eq(sessions.parentId, stream.id), eq(sessions.isActive, true)) }),
    refs.length
      ? db()
          .select()
          .from(multistreamTargets)
          .where(
            and(
              eq(multistreamTargets.userId, userId),
              inArray(
                multistreamTargets.id,
                refs.map((r) => r.id),
              ),
            ),
          )
      : [],
  ]);
  // Only the current epoch's reports: a node that lost the session may have written before it knew.
  const states = session
    ? await db()
        .select()
        .from(multistreamStates)
        .where(and(eq(multistreamStates.sessionId, session.id), eq(multistreamStates.epoch, session.epoch)))
    : [];
  return {
    streamId: stream.id,
    sessionId: session?.id ?? null,
    checkedAt: Date.now(),
    targets: refs.flatMap((ref) => {
      const target = targets.find((t) => t.id === ref.id);
      if (!target) return [];
      const kept = states.find((s) => s.targetId === ref.id);
      const state: TargetLiveState = !session ? "offline" : target.disabled ? "disabled" : ((kept?.state as TargetLiveState | undefined) ?? "waiting");
      const shown = session && !target.disabled && kept;
      return [
        {
          id: target.id,
          name: target.name,
          host: targetHost(target.url),
          profile: ref.profile,
          videoOnly: ref.videoOnly ?? false,
          state,
          ...(shown && kept.error !== null ? { error: kept.error } : {}),
          ...(shown && kept.retryAt !== null && state === "retrying" ? { retryAt: kept.retryAt } : {}),
          ...(shown ? { updatedAt: kept.updatedAt } : {}),
        },
      ];
    }),
  };
}
