import type { IngestProtocol } from "@/lib/media-node-protocol";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { db, type Database } from "@/db/client";
import { assets, sessions, streams } from "@/db/schema";
import { compact } from "@/lib/compact";
import { notFound } from "@/lib/errors";
import { pageWindow, toPage, type Page, type Sort } from "@/db/pagination";
import { NEWEST_FIRST, type PageQuery } from "@/lib/api/list-query";
import { clippableRange, timelineRanges } from "@/lib/clips/timeline";
import { config } from "@/lib/config";
import { newId } from "@/lib/ids";
import { publicOrigin } from "@/lib/origin";
import type { Stream } from "@/lib/streams/schema";
import type { Session } from "./schema";

export type SessionRow = typeof sessions.$inferSelect;
type StreamRow = typeof streams.$inferSelect;

/** What callers looked up beside the row: the stream's current name, the recording asset's playback id, what a clip can take. */
interface SessionExtras {
  streamName?: string;
  recordingPlaybackId?: string | null;
  clippable?: Session["clippable"];
}

/** A session's recording as HLS: the whole broadcast so far, every part of it (lib/delivery/recordings.ts). */
export const recordingPlaylistUrl = (sessionId: string) => `${publicOrigin()}/recordings/${sessionId}/index.m3u8`;

export function serializeSession(row: SessionRow, { streamName, recordingPlaybackId, clippable }: SessionExtras = {}): Session {
  return compact({
    id: row.id,
    name: row.name,
    streamName,
    parentId: row.parentId,
    userId: row.userId,
    createdAt: row.createdAt,
    record: row.record,
    profiles: row.profiles,
    isActive: row.isActive,
    lastSeen: row.lastSeen,
    sourceSegments: row.sourceSegments,
    transcodedSegments: row.transcodedSegments,
    sourceSegmentsDuration: row.sourceSegmentsDuration,
    transcodedSegmentsDuration: row.transcodedSegmentsDuration,
    recordingStatus: row.recordingStatus as Session["recordingStatus"],
    // Built as they are read: at the origin of the request that reads them (lib/origin.ts).
    recordingUrl: row.recordingStatus ? recordingPlaylistUrl(row.id) : undefined,
    mp4Url: row.recordingStatus === "ready" ? `${publicOrigin()}/recordings/${row.id}/video.mp4` : undefined,
    endedAt: row.endedAt,
    reconnectWindow: row.record ? reconnectWindowOf(row) : undefined,
    assetId: row.assetId,
    recordingPlaybackId,
    clippable,
  });
}

/**
 * A reconnect window in seconds: a stream's (what its next broadcast gets) or a session's (the
 * stream's when it started: how long after its end a publish continues it); unset, the deployment's.
 */
export const reconnectWindowOf = (row: { reconnectWindow: number | null }): number => row.reconnectWindow ?? config().RECORDING_RECONNECT_WINDOW_S;

/** The historic child stream object of a session (deprecated by the spec, still listed). */
export function sessionAsChildStream(row: SessionRow): Stream {
  return compact({
    id: row.id,
    name: row.name,
    userId: row.userId,
    createdAt: row.createdAt,
    parentId: row.parentId,
    profiles: row.profiles,
    record: row.record,
    suspended: false,
    isActive: row.isActive,
    lastSeen: row.lastSeen,
    multistream: { targets: [] },
    sourceSegments: row.sourceSegments,
    transcodedSegments: row.transcodedSegments,
    sourceSegmentsDuration: row.sourceSegmentsDuration,
    transcodedSegmentsDuration: row.transcodedSegmentsDuration,
  });
}

/** Starts a session of a stream (in a transaction when given); it inherits the stream's record flag, profiles and reconnect window. */
export async function createSession(
  stream: StreamRow,
  node: { mediaNodeId?: string; epoch?: number; ingestProtocol?: IngestProtocol } = {},
  tx: Pick<Database, "insert"> = db(),
): Promise<SessionRow> {
  const now = Date.now();
  const [row] = await tx
    .insert(sessions)
    .values({
      id: newId(),
      userId: stream.userId,
      parentId: stream.id,
      name: stream.name,
      record: stream.record,
      profiles: stream.profiles,
      reconnectWindow: reconnectWindowOf(stream),
      keyGeneration: stream.keyGeneration,
      isActive: true,
      lastSeen: now,
      createdAt: now,
      ...node,
    })
    .returning();
  return row;
}

/** A user's session of a stream not deleted, with the stream's current name. */
async function findSessionWithStream(userId: string, id: string) {
  const [row] = await db()
    .select({ session: sessions, streamName: streams.name })
    .from(sessions)
    .innerJoin(streams, eq(streams.id, sessions.parentId))
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(streams.deletedAt)))
    .limit(1);
  return row;
}

export async function findSessionRow(userId: string, id: string): Promise<SessionRow | undefined> {
  return (await findSessionWithStream(userId, id))?.session;
}

export async function getSession(userId: string, id: string): Promise<Session> {
  const found = await findSessionWithStream(userId, id);
  if (!found) throw notFound("session");
  const { session: row, streamName } = found;
  const [asset, clippable] = await Promise.all([
    row.assetId ? db().query.assets.findFirst({ where: eq(assets.id, row.assetId), columns: { playbackId: true } }) : undefined,
    clippableOf([row]),
  ]);
  return serializeSession(row, { streamName, recordingPlaybackId: asset?.playbackId, clippable: clippable.get(row.id) });
}

/** What a clip of each session can take now (lib/clips/timeline.ts). */
async function clippableOf(rows: SessionRow[]) {
  const ranges = await timelineRanges(rows);
  return new Map(rows.map((r) => [r.id, clippableRange(ranges.get(r.id)!, r.isActive)]));
}

/** A page of sessions as the API shows them. */
async function serializePage(items: { row: SessionRow; streamName: string; recordingPlaybackId: string | null }[]) {
  const clippable = await clippableOf(items.map((r) => r.row));
  return items.map((r) =>
    serializeSession(r.row, { streamName: r.streamName, recordingPlaybackId: r.recordingPlaybackId, clippable: clippable.get(r.row.id) }),
  );
}

/**
 * One page of a user's sessions (optionally of one stream, or recorded only), newest first
 * unless another sort is given; each row with its sort key.
 */
export async function pageSessionRows(
  userId: string,
  page: PageQuery,
  where: SQL[] = [],
  sort: Sort = { order: NEWEST_FIRST, key: sessions.createdAt },
): Promise<Page<{ row: SessionRow; key: number; streamName: string; recordingPlaybackId: string | null }>> {
  const window = pageWindow(sessions, page, sort);
  const rows = await db()
    .select({ row: sessions, key: sql`${sort.key}`.mapWith(Number), streamName: streams.name, recordingPlaybackId: assets.playbackId })
    .from(sessions)
    .innerJoin(streams, eq(streams.id, sessions.parentId))
    .leftJoin(assets, eq(assets.id, sessions.assetId))
    .where(and(eq(sessions.userId, userId), isNull(streams.deletedAt), window.after, ...where))
    .orderBy(...window.orderBy)
    .limit(window.limit);
  return toPage(rows, page.limit, (r) => ({ key: r.key, id: r.row.id }), sort.order);
}

export async function listSessions(userId: string, page: PageQuery): Promise<Page<Session>> {
  const { items, next } = await pageSessionRows(userId, page);
  return { items: await serializePage(items), next };
}

export async function listStreamSessions(userId: string, streamId: string, opts: PageQuery & { recordedOnly: boolean }): Promise<Page<Session>> {
  const [parent] = await db()
    .select({ id: streams.id })
    .from(streams)
    .where(and(eq(streams.id, streamId), eq(streams.userId, userId), isNull(streams.deletedAt)));
  if (!parent) throw notFound("stream");
  const where = [eq(sessions.parentId, streamId)];
  if (opts.recordedOnly) where.push(eq(sessions.record, true));
  const { items, next } = await pageSessionRows(userId, opts, where);
  return { items: await serializePage(items), next };
}
