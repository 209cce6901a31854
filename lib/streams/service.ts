import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { db, type Database } from "@/db/client";
import { multistreamTargets, sessions, streams } from "@/db/schema";
import { checkPlaybackPolicy } from "@/lib/access/policy";
import { compact } from "@/lib/compact";
import { conflict, invalid, notFound } from "@/lib/errors";
import { compareBy, inRange, nameContains, pageWindow, toPage, type Page } from "@/db/pagination";
import type { Order, PageQuery } from "@/lib/api/list-query";
import { newId, newPlaybackId, newStreamKey } from "@/lib/ids";
import { viewersOf, viewersOfEach } from "@/lib/live/viewers";
import { findSessionRow, pageSessionRows, reconnectWindowOf, sessionAsChildStream } from "@/lib/sessions/service";
import type { Profile, Stream, StreamCreate, StreamFilter, StreamPatch, TargetRef } from "./schema";

export type StreamRow = typeof streams.$inferSelect;

export function serializeStream(row: StreamRow): Stream {
  return compact({
    id: row.id,
    name: row.name,
    userId: row.userId,
    createdAt: row.createdAt,
    streamKey: row.streamKey,
    playbackId: row.playbackId,
    profiles: row.profiles,
    record: row.record,
    suspended: row.suspended,
    isActive: row.isActive,
    lastSeen: row.lastSeen,
    multistream: { targets: row.multistreamTargets },
    playbackPolicy: row.playbackPolicy,
    reconnectWindow: reconnectWindowOf(row),
    sourceSegments: row.sourceSegments,
    transcodedSegments: row.transcodedSegments,
    sourceSegmentsDuration: row.sourceSegmentsDuration,
    transcodedSegmentsDuration: row.transcodedSegmentsDuration,
    health: row.isActive ? row.health : null,
  });
}

/**
 * Target references must name the caller's own targets, once each, and a
 * rendition the stream produces.
 */
async function checkTargetRefs(userId: string, refs: TargetRef[], profiles: Profile[]) {
  const ids = refs.map((r) => r.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw invalid(`multistream target ${duplicate} is listed twice`);
  if (ids.length) {
    const owned = await db()
      .select({ id: multistreamTargets.id })
      .from(multistreamTargets)
      .where(and(eq(multistreamTargets.userId, userId), inArray(multistreamTargets.id, ids)));
    const known = new Set(owned.map((t) => t.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing) throw invalid(`multistream target ${missing} does not exist`);
  }
  const renditions = new Set(["source", ...profiles.map((p) => p.name)]);
  const bad = refs.find((r) => !renditions.has(r.profile));
  if (bad) {
    throw invalid(`multistream target ${bad.id}: profile "${bad.profile}" is not a rendition of this stream (use one of: ${[...renditions].join(", ")})`);
  }
}

const normalizeRefs = (refs: TargetRef[]) => refs.map((r) => (r.videoOnly === undefined ? { id: r.id, profile: r.profile } : { ...r }));

export async function createStream(userId: string, input: StreamCreate): Promise<Stream> {
  const profiles = input.profiles ?? [];
  const targets = input.multistream?.targets ?? [];
  await checkTargetRefs(userId, targets, profiles);
  const playbackPolicy = await checkPlaybackPolicy(userId, input.playbackPolicy ?? null);
  const [row] = await db()
    .insert(streams)
    .values({
      id: newId(),
      userId,
      name: input.name,
      streamKey: newStreamKey(),
      playbackId: newPlaybackId(),
      profiles,
      record: input.record ?? false,
      multistreamTargets: normalizeRefs(targets),
      playbackPolicy,
      reconnectWindow: input.reconnectWindow ?? null,
      createdAt: Date.now(),
    })
    .returning();
  return serializeStream(row);
}

export async function findStreamRow(userId: string, id: string): Promise<StreamRow | undefined> {
  return db().query.streams.findFirst({
    where: and(eq(streams.id, id), eq(streams.userId, userId), isNull(streams.deletedAt)),
  });
}

async function requireStreamRow(userId: string, id: string): Promise<StreamRow> {
  const row = await findStreamRow(userId, id);
  if (row) return row;
  if (await findSessionRow(userId, id)) {
    throw invalid("this is a session (a historic child stream object) and is read-only; change its parent stream instead");
  }
  throw notFound("stream");
}

/** A stream by id; a session id gives its historic child stream object. */
export async function getStream(userId: string, id: string): Promise<Stream> {
  const row = await findStreamRow(userId, id);
  if (row) return { ...serializeStream(row), ...(row.isActive ? { viewerCount: await viewersOf(row.id) } : {}) };
  const session = await findSessionRow(userId, id);
  if (session) return sessionAsChildStream(session);
  throw notFound("stream");
}

export interface StreamListOptions extends PageQuery {
  streamsOnly: boolean;
  filters: StreamFilter[];
  order: Order;
}

/** Columns streams and their sessions (historic child streams) share, which lists filter and sort by. */
type Listed = typeof streams | typeof sessions;

/** The sort key of a list order on either table: streams never seen sort as the oldest. */
export function streamSortKey(table: Listed, order: Order): SQL {
  return order.by === "lastSeen" ? sql`coalesce(${table.lastSeen}, 0)` : sql`${table.createdAt}`;
}

function filterConditions(table: Listed, filters: StreamFilter[]): SQL[] {
  return filters
    .flatMap((f): (SQL | undefined)[] => {
      switch (f.id) {
        case "isActive":
          return [eq(table.isActive, f.value)];
        case "record":
          return [eq(table.record, f.value)];
        case "name":
          return [nameContains(table.name, f.value)];
        case "createdAt":
          return inRange(table.createdAt, f.value);
        case "lastSeen":
          return inRange(table.lastSeen, f.value);
      }
    })
    .filter((c): c is SQL => c !== undefined);
}

/**
 * Parent streams, plus (unless streamsOnly) the historic child stream objects of
 * sessions, merged in the order asked for. Each table gives at most limit + 1 rows after
 * the cursor, which is enough to fill the page and know whether more exist.
 */
export async function listStreams(userId: string, opts: StreamListOptions): Promise<Page<Stream>> {
  const sort = { order: opts.order, key: streamSortKey(streams, opts.order) };
  const window = pageWindow(streams, opts, sort);
  const parents = db()
    .select({ row: streams, key: sql`${sort.key}`.mapWith(Number) })
    .from(streams)
    .where(and(eq(streams.userId, userId), isNull(streams.deletedAt), window.after, ...filterConditions(streams, opts.filters)))
    .orderBy(...window.orderBy)
    .limit(window.limit);

  const children = opts.streamsOnly
    ? Promise.resolve({ items: [] })
    : pageSessionRows(userId, { limit: opts.limit, cursor: opts.cursor }, filterConditions(sessions, opts.filters), {
        order: opts.order,
        key: streamSortKey(sessions, opts.order),
      });

  const [parentRows, childPage] = await Promise.all([parents, children]);
  const merged = [
    ...parentRows.map((r) => ({ key: r.key, id: r.row.id, object: serializeStream(r.row) })),
    ...childPage.items.map((r) => ({ key: r.key, id: r.row.id, object: sessionAsChildStream(r.row) })),
  ].sort(compareBy(opts.order));
  const page = toPage(merged, opts.limit, (m) => m, opts.order);
  // The live streams' viewers, as GET /stream/{id} gives them: one query for the page. A live
  // session's child object is left without (its stream's count is its parent's).
  const live = page.items.flatMap((m) => (m.object.isActive && !m.object.parentId ? [m.id] : []));
  const viewers = await viewersOfEach(live);
  return {
    items: page.items.map((m) => (viewers.has(m.id) ? { ...m.object, viewerCount: viewers.get(m.id) } : m.object)),
    next: page.next,
  };
}

/**
 * Renditions change only while the stream is idle: a live broadcast keeps the ladder it
 * started with. The stream row is locked while deciding, as a publish locks it, so a
 * broadcast cannot start in between.
 */
export async function updateStream(userId: string, id: string, patch: StreamPatch): Promise<void> {
  const row = await requireStreamRow(userId, id);
  const profiles = patch.profiles ?? row.profiles;
  const changes: Partial<StreamRow> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.record !== undefined) changes.record = patch.record;
  if (patch.suspended !== undefined) changes.suspended = patch.suspended;
  // A running session keeps the window it started with (sessions.reconnect_window).
  if (patch.reconnectWindow !== undefined) changes.reconnectWindow = patch.reconnectWindow;
  if (patch.profiles) changes.profiles = patch.profiles;
  if (patch.multistream || patch.profiles) {
    const refs = patch.multistream?.targets ?? row.multistreamTargets;
    await checkTargetRefs(userId, refs, profiles);
    changes.multistreamTargets = normalizeRefs(refs);
  }
  if (patch.playbackPolicy !== undefined) changes.playbackPolicy = await checkPlaybackPolicy(userId, patch.playbackPolicy);
  if (!Object.keys(changes).length) return;
  await db().transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: streams.id })
      .from(streams)
      .where(and(eq(streams.id, id), isNull(streams.deletedAt)))
      .for("update");
    if (!locked) throw notFound("stream");
    if (patch.profiles && (await liveSessionOf(tx, id))) {
      throw conflict("the renditions of a live stream cannot change: end the broadcast, then change them");
    }
    await tx.update(streams).set(changes).where(eq(streams.id, id));
  });
}

const liveSessionOf = (tx: Pick<Database, "query">, streamId: string) =>
  tx.query.sessions.findFirst({ columns: { id: true }, where: and(eq(sessions.parentId, streamId), eq(sessions.isActive, true)) });

/**
 * A new stream key: a publish with the old one is refused from now on, and a broadcast
 * published with it is cut at its media node's next heartbeat (the session's key
 * generation no longer matches the stream's).
 */
export async function rotateStreamKey(userId: string, id: string): Promise<Stream> {
  await requireStreamRow(userId, id);
  const [row] = await db()
    .update(streams)
    .set({ streamKey: newStreamKey(), keyGeneration: sql`${streams.keyGeneration} + 1` })
    .where(and(eq(streams.id, id), eq(streams.userId, userId), isNull(streams.deletedAt)))
    .returning();
  if (!row) throw notFound("stream");
  return serializeStream(row);
}

export async function deleteStream(userId: string, id: string): Promise<void> {
  await requireStreamRow(userId, id);
  await db()
    .update(streams)
    .set({ deletedAt: Date.now(), isActive: false })
    .where(and(eq(streams.id, id), eq(streams.userId, userId)));
}

/** Streams that reference a target; a referenced target cannot be deleted. */
/** The streams (not deleted) whose multistream.targets name each of these targets, newest first. */
export async function streamsUsingTargets(userId: string, targetIds: string[]): Promise<Map<string, { id: string; name: string }[]>> {
  const using = new Map(targetIds.map((id) => [id, [] as { id: string; name: string }[]]));
  if (!targetIds.length) return using;
  const rows = await db()
    .select({ id: streams.id, name: streams.name, refs: streams.multistreamTargets })
    .from(streams)
    .where(
      and(
        eq(streams.userId, userId),
        isNull(streams.deletedAt),
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${streams.multistreamTargets}) AS ref WHERE ref->>'id' IN ${targetIds})`,
      ),
    )
    .orderBy(sql`${streams.createdAt} DESC`, sql`${streams.id} DESC`);
  for (const row of rows) for (const ref of row.refs) using.get(ref.id)?.push({ id: row.id, name: row.name });
  return using;
}
