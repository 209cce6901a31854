import { and, count, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { db, type Executor } from "@/db/client";
import { multistreamTargets, recordingSegments, sessions, streams } from "@/db/schema";
import { liveSessionEnded, recordingEnded } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { createSession, reconnectWindowOf, serializeSession, type SessionRow } from "@/lib/sessions/service";
import { recordHealth } from "@/lib/sessions/health";
import { serializeStream, type StreamRow } from "@/lib/streams/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import { conflict, Refusal } from "@/lib/errors";
import { clearPushStates, recordPushState, type PushReport } from "@/lib/targets/live-state";
import { liveSegmentStored } from "./dvr";
import type { Heartbeat, HeartbeatReply, IngestProtocol, LiveTarget, PublishGrant, SegmentCounters, SessionEvent } from "@/lib/media-node-protocol";

/**
 * The app's side of live ingest: media nodes report what happens to a broadcast
 * and this service keeps streams and sessions true and announces the events.
 */

/** A publish the media node must cut: the reason goes back to it (as a 403). */
export class PublishRefused extends Refusal {
  constructor(message: string) {
    super("forbidden", message);
  }
}

async function liveTargets(stream: StreamRow): Promise<LiveTarget[]> {
  const refs = stream.multistreamTargets;
  if (!refs.length) return [];
  const rows = await db()
    .select()
    .from(multistreamTargets)
    .where(
      and(
        eq(multistreamTargets.userId, stream.userId),
        inArray(
          multistreamTargets.id,
          refs.map((r) => r.id),
        ),
      ),
    );
  return refs.flatMap((ref) => {
    const target = rows.find((t) => t.id === ref.id);
    return target && !target.disabled ? [{ id: target.id, name: target.name, url: target.url, profile: ref.profile, videoOnly: ref.videoOnly ?? false }] : [];
  });
}

/** Why a publish of this stream would be refused now: unknown (or deleted), suspended, or live already. */
async function publishRefusal(stream: StreamRow | undefined, tx: Executor = db()): Promise<string | undefined> {
  if (!stream) return "unknown stream key";
  if (stream.suspended) return "stream is suspended";
  const live = await tx.query.sessions.findFirst({ where: and(eq(sessions.parentId, stream.id), eq(sessions.isActive, true)) });
  if (live) return "stream is already live";
}

/**
 * Whether a publish with this key would be admitted now, asked before a WebRTC publish is
 * negotiated (its encoder is told at once, not once media flows); authorizePublish decides.
 */
export async function publishCheck(streamKey: string): Promise<{ streamId: string } | { refused: string; unknown: boolean }> {
  const [stream] = await db()
    .select()
    .from(streams)
    .where(and(eq(streams.streamKey, streamKey), isNull(streams.deletedAt)));
  const refused = await publishRefusal(stream);
  return refused ? { refused, unknown: !stream } : { streamId: stream!.id };
}

/**
 * A publish with a stream key: refused for unknown, suspended or deleted streams
 * and while another broadcast of the stream is live, on any node (the stream row
 * is locked while deciding, so two nodes asking at once cannot both win); a
 * recorded session that ended within its reconnect window continues,
 * otherwise a session starts. Either way the session's epoch goes up: the node
 * that had it before is fenced off.
 */
export async function authorizePublish(streamKey: string, nodeId: string, protocol: IngestProtocol = "rtmp"): Promise<PublishGrant> {
  const { stream, session, resumed } = await db().transaction(async (tx) => {
    const [stream] = await tx
      .select()
      .from(streams)
      .where(and(eq(streams.streamKey, streamKey), isNull(streams.deletedAt)))
      .for("update");
    const refusal = await publishRefusal(stream, tx);
    if (refusal) throw new PublishRefused(refusal);

    const now = Date.now();
    const latest = await tx.query.sessions.findFirst({ where: eq(sessions.parentId, stream.id), orderBy: desc(sessions.createdAt) });
    // Within the session's own window: the one its stream had when it started (a later edit does not change it).
    const resumes =
      stream.record &&
      latest?.record &&
      latest.recordingStatus === "waiting" &&
      latest.endedAt !== null &&
      latest.endedAt >= now - reconnectWindowOf(latest) * 1000;
    const [resumable] = resumes
      ? await tx
          .update(sessions)
          .set({
            isActive: true,
            endedAt: null,
            endReason: null,
            lastSeen: now,
            mediaNodeId: nodeId,
            ingestProtocol: protocol,
            epoch: sql`${sessions.epoch} + 1`,
            epochCounters: null,
            keyGeneration: stream.keyGeneration,
          })
          .where(and(eq(sessions.id, latest.id), eq(sessions.isActive, false), eq(sessions.recordingStatus, "waiting")))
          .returning()
      : [];
    const session = resumable ?? (await createSession(stream, { mediaNodeId: nodeId, epoch: 1, ingestProtocol: protocol }, tx));
    await tx.update(streams).set({ lastSeen: now }).where(eq(streams.id, stream.id));
    return { stream, session, resumed: Boolean(resumable) };
  });
  if (session.record && !resumed) {
    await notifyWebhooks(stream.userId, "recording.started", { stream: serializeStream(stream), payload: { session: serializeSession(session) } });
  }
  return {
    sessionId: session.id,
    epoch: session.epoch,
    streamId: stream.id,
    playbackId: stream.playbackId,
    record: session.record,
    resumed,
    profiles: session.profiles,
    targets: await liveTargets(stream),
  };
}

/** A report from a node that no longer runs the session (it was declared lost, or another node took over). */
const fenced = (sessionId: string) => conflict(`session ${sessionId} is no longer run by this node`);

/** The session, if this epoch of it is live: what a node may still report on. */
async function currentSession(sessionId: string, epoch: number) {
  const session = await db().query.sessions.findFirst({ where: and(eq(sessions.id, sessionId), eq(sessions.epoch, epoch), eq(sessions.isActive, true)) });
  if (!session) throw fenced(sessionId);
  return session;
}

async function loadSession(sessionId: string): Promise<{ session: SessionRow; stream: StreamRow }> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  const stream = session && (await db().query.streams.findFirst({ where: eq(streams.id, session.parentId) }));
  if (!session || !stream) throw new PublishRefused(`unknown session ${sessionId}`);
  return { session, stream };
}

/** What a media node reports of a session it runs, under its epoch. */
export async function sessionEvent(event: SessionEvent): Promise<void> {
  if (event.kind === "ended") {
    if (event.counters) await countEpoch(event.sessionId, event.epoch, event.counters);
    return sessionEnded(event.sessionId, { epoch: event.epoch, reason: "publisher-left" });
  }
  await currentSession(event.sessionId, event.epoch);
  if (event.kind === "ready") await sessionReady(event.sessionId);
  else if (event.kind === "recorded") await recordingSegmentStored(event);
  else if (event.kind === "live-segment") await liveSegmentStored(event);
  else await multistreamChanged(event);
}

/** The session's HLS playlist works: the stream is active (stream.started). */
async function sessionReady(sessionId: string) {
  const now = Date.now();
  // A reconnect (a later epoch) is ready again, but the session started only once.
  const [session] = await db()
    .update(sessions)
    .set({ readyAt: sql`coalesce(${sessions.readyAt}, ${now})`, lastSeen: now })
    .where(eq(sessions.id, sessionId))
    .returning();
  if (!session) return;
  const [stream] = await db().update(streams).set({ isActive: true, lastSeen: now }).where(eq(streams.id, session.parentId)).returning();
  await notifyWebhooks(stream.userId, "stream.started", { stream: serializeStream(stream), payload: { session: serializeSession(session) } });
}

export async function heartbeat(beat: Heartbeat): Promise<HeartbeatReply> {
  const now = Date.now();
  const counted = await countEpoch(beat.sessionId, beat.epoch, beat);
  // Ended meanwhile (declared lost) or taken over by another node: this node must let go.
  if (!counted?.isActive) return { stop: true, targets: [] };
  const [session] = await db().update(sessions).set({ lastSeen: now }).where(eq(sessions.id, beat.sessionId)).returning();
  if (beat.health) await recordHealth(session, beat.health);
  const [stream] = await db()
    .update(streams)
    .set({ lastSeen: now, health: beat.health ?? null })
    .where(eq(streams.id, session.parentId))
    .returning();
  // A rotated key cuts the broadcast published with the old one.
  const stop = !stream || stream.suspended || stream.deletedAt !== null || stream.keyGeneration !== session.keyGeneration;
  return { stop, targets: stop ? [] : await liveTargets(stream) };
}

const COUNTERS = ["sourceSegments", "transcodedSegments", "sourceSegmentsDuration", "transcodedSegmentsDuration"] as const;

/**
 * Adds what an epoch's node stored since its last report to the session's and the stream's
 * counters. The node reports totals (SegmentCounters): what it reported before is subtracted, so
 * a report that arrives late, twice or out of order adds nothing, and one that never arrived is
 * made good by the next, or by the end. Counted while the epoch is the session's, even after the
 * session was declared lost: those segments were stored. The session as it is now, if the epoch is its.
 */
async function countEpoch(sessionId: string, epoch: number, totals: SegmentCounters): Promise<SessionRow | undefined> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.epoch, epoch)))
      .for("update");
    if (!row) return undefined;
    const before = row.epochCounters;
    const added = Object.fromEntries(COUNTERS.map((k) => [k, Math.max(0, totals[k] - (before?.[k] ?? 0))])) as SegmentCounters;
    if (COUNTERS.every((k) => added[k] === 0)) return row;
    const reported = Object.fromEntries(COUNTERS.map((k) => [k, Math.max(totals[k], before?.[k] ?? 0)])) as SegmentCounters;
    const plus = <T extends typeof sessions | typeof streams>(table: T) =>
      Object.fromEntries(COUNTERS.map((k) => [k, sql`${table[k]} + ${added[k]}`])) as Record<(typeof COUNTERS)[number], SQL>;
    const [session] = await tx
      .update(sessions)
      .set({ ...plus(sessions), epochCounters: reported })
      .where(eq(sessions.id, sessionId))
      .returning();
    await tx.update(streams).set(plus(streams)).where(eq(streams.id, row.parentId));
    return session;
  });
}

async function recordingSegmentStored(segment: Extract<SessionEvent, { kind: "recorded" }>) {
  await db()
    .insert(recordingSegments)
    .values({
      sessionId: segment.sessionId,
      epoch: segment.epoch,
      seq: segment.seq,
      file: segment.file,
      duration: segment.duration,
      size: segment.size,
      startedAt: segment.startedAt ?? null,
      createdAt: Date.now(),
    })
    .onConflictDoNothing();
}

export type EndReason = "publisher-left" | "node-lost";

/**
 * The broadcast ended (publisher gone, cut, its transcoder failed for good, or its
 * node lost): the stream goes idle (stream.idle); a session with recorded segments
 * waits for a reconnect and is then processed (recording.waiting, then the
 * recording/ended job). `epoch`: only if the session is still at it.
 */
export async function sessionEnded(sessionId: string, end: { epoch?: number; reason: EndReason }) {
  const now = Date.now();
  const [recorded] = await db().select({ n: count() }).from(recordingSegments).where(eq(recordingSegments.sessionId, sessionId));
  const hasRecording = recorded.n > 0;
  const [session] = await db()
    .update(sessions)
    .set({
      isActive: false,
      endedAt: now,
      lastSeen: now,
      endReason: end.reason,
      // What its recording is watched under from now on (lib/live/playback.ts recordingContent).
      playbackPolicy: sql`(SELECT ${streams.playbackPolicy} FROM ${streams} WHERE ${streams.id} = ${sessions.parentId})`,
      ...(hasRecording ? { recordingStatus: "waiting" } : {}),
    })
    .where(and(eq(sessions.id, sessionId), eq(sessions.isActive, true), end.epoch === undefined ? undefined : eq(sessions.epoch, end.epoch)))
    .returning();
  if (!session) return; // already ended, or no longer this node's
  await clearPushStates(sessionId);
  const [stream] = await db().update(streams).set({ isActive: false, health: null, lastSeen: now }).where(eq(streams.id, session.parentId)).returning();
  await emit(liveSessionEnded, { sessionId, endedAt: now });
  const about = { stream: serializeStream(stream), payload: { session: serializeSession(session) } };
  if (session.readyAt) await notifyWebhooks(stream.userId, "stream.idle", about);
  if (hasRecording) {
    await notifyWebhooks(stream.userId, "recording.waiting", about);
    await emit(recordingEnded, { sessionId, endedAt: now });
  }
}

/** A target's push changed state: kept for the owner's view; connected, error and disconnected are webhook events too. */
export async function multistreamChanged(report: PushReport) {
  await recordPushState(report);
  const { sessionId, targetId, state, error } = report;
  if (state === "connecting") return;
  const { session, stream } = await loadSession(sessionId);
  const ref = stream.multistreamTargets.find((r) => r.id === targetId);
  const target = await db().query.multistreamTargets.findFirst({ where: eq(multistreamTargets.id, targetId) });
  await notifyWebhooks(stream.userId, `multistream.${state}`, {
    stream: serializeStream(stream),
    payload: {
      session: serializeSession(session),
      target: { id: targetId, name: target?.name ?? "", profile: ref?.profile ?? "source" },
      ...(error ? { error } : {}),
    },
  });
}

/** Sessions a media node left live when it died (its launcher saw it): ended now, not after NODE_LOST_AFTER_S. */
export async function endSessionsOfNode(nodeId: string) {
  const live = await db()
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.mediaNodeId, nodeId), eq(sessions.isActive, true)))
    .orderBy(desc(sessions.createdAt));
  for (const s of live) await sessionEnded(s.id, { reason: "node-lost" });
}
