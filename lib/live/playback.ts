import fs from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { sessions, streams } from "@/db/schema";
import { config } from "@/lib/config";

/** Where media nodes on this machine write (DATA_DIR/media). */
export const mediaDir = () => path.join(config().dataDir, "media");

/** Names a URL may use for a file under a session's folders. */
export const SAFE_NAME = /^[\w-]+(\.(m3u8|ts|mp4|m4s))?$/;

/** The live session whose HLS works right now for a stream's playback id. */
export async function liveSessionFor(playbackId: string) {
  const [row] = await db()
    .select({ sessionId: sessions.id, readyAt: sessions.readyAt })
    .from(streams)
    .innerJoin(sessions, eq(sessions.parentId, streams.id))
    .where(and(eq(streams.playbackId, playbackId), isNull(streams.deletedAt), eq(sessions.isActive, true)))
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  return row?.readyAt ? row.sessionId : undefined;
}

export async function streamForPlayback(playbackId: string) {
  return db().query.streams.findFirst({ where: and(eq(streams.playbackId, playbackId), isNull(streams.deletedAt)) });
}

/**
 * The master playlist of a live session, its variant URIs rewritten under the
 * session id: segment URLs are then unique per session and cacheable for good.
 */
export async function liveMasterPlaylist(sessionId: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(mediaDir(), "live", sessionId, "index.m3u8"), "utf8").catch(() => undefined);
  return text?.replace(/^(?!#)(\S+)$/gm, `${sessionId}/$1`);
}

/** Whether a session (live or recorded) belongs to the stream of this playback id. */
export async function sessionOfPlayback(playbackId: string, sessionId: string) {
  const [row] = await db()
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(streams, eq(sessions.parentId, streams.id))
    .where(and(eq(streams.playbackId, playbackId), eq(sessions.id, sessionId)))
    .limit(1);
  return Boolean(row);
}
