import { and, asc, desc, eq, isNull, type SQL } from "drizzle-orm";
import { text } from "node:stream/consumers";
import { db } from "@/db/client";
import { assets, mediaNodes, recordingSegments, sessions, streams } from "@/db/schema";
import type { GatedContent } from "@/lib/access/gate";
import { recordingContent } from "@/lib/access/recording";
import { assetHlsUrl } from "@/lib/assets/service";
import { recordingPlaylistUrl } from "@/lib/sessions/service";
import { mediaPlaylist } from "@/lib/av/hls";
import { objects } from "@/lib/storage";
import { liveKey, recordingKey } from "./keys";

/** Names a URL may use for a part of a live or recording path. */
export const SAFE_NAME = /^[\w-]+(\.(m3u8|ts|mp4|m4s|jpg))?$/;

/**
 * The live session (and its current epoch) whose HLS works right now for a stream, and whether
 * the media node holding it plays it over WebRTC too (WHEP).
 */
export async function liveSessionOf(streamId: string) {
  const [row] = await db()
    .select({ sessionId: sessions.id, epoch: sessions.epoch, readyAt: sessions.readyAt, nodeWebrtcUrl: mediaNodes.webrtcUrl })
    .from(sessions)
    .leftJoin(mediaNodes, eq(mediaNodes.id, sessions.mediaNodeId))
    .where(and(eq(sessions.parentId, streamId), eq(sessions.isActive, true)))
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  if (!row?.readyAt) return undefined;
  const { nodeWebrtcUrl, ...session } = row;
  return { ...session, webrtc: nodeWebrtcUrl !== null };
}

export async function streamForPlayback(playbackId: string) {
  return db().query.streams.findFirst({ where: and(eq(streams.playbackId, playbackId), isNull(streams.deletedAt)) });
}

/** A small object of the store as text, or undefined when it is not there. */
export async function readText(key: string): Promise<string | undefined> {
  try {
    return await text(await objects().read(key));
  } catch {
    return undefined;
  }
}

/**
 * The master playlist of a live session's epoch as viewers get it: its variant URIs under
 * <session>/<epoch>/, so that segment URLs are unique for good, and cacheable for good.
 */
export const masterUnderSession = (master: string, sessionId: string, epoch: number) => master.replace(/^(?!#)(\S+)$/gm, `${sessionId}/${epoch}/$1`);

/** The store key of a live file (a media playlist or a segment) of an epoch of a session. */
export const liveFileKey = (sessionId: string, epoch: number, variant: string, file: string) => liveKey(sessionId, epoch, `${variant}/${file}`);

/** The stream (what its playback policy needs) of a live session, by the stream's playback id the URL names. */
export async function streamOfSession(playbackId: string, sessionId: string) {
  const [row] = await db()
    .select({ id: streams.id, playbackId: streams.playbackId, userId: streams.userId, playbackPolicy: streams.playbackPolicy })
    .from(sessions)
    .innerJoin(streams, eq(sessions.parentId, streams.id))
    .where(and(eq(sessions.id, sessionId), eq(streams.playbackId, playbackId)))
    .limit(1);
  return row;
}

/** A session's recording with what its gate needs (lib/access/recording.ts): the newest session that `where` picks. */
async function recordingRow(where: SQL) {
  const [row] = await db()
    .select({
      sessionId: sessions.id,
      live: sessions.isActive,
      record: sessions.record,
      recordingStatus: sessions.recordingStatus,
      endedUnder: sessions.playbackPolicy,
      stream: { playbackId: streams.playbackId, userId: streams.userId, playbackPolicy: streams.playbackPolicy },
      asset: {
        playbackId: assets.playbackId,
        playbackPolicy: assets.playbackPolicy,
        purgedAt: assets.purgedAt,
        deletedAt: assets.deletedAt,
        phase: assets.phase,
        files: assets.files,
      },
    })
    .from(sessions)
    .innerJoin(streams, eq(sessions.parentId, streams.id))
    .leftJoin(assets, eq(assets.id, sessions.assetId))
    .where(where)
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  return row;
}

/** A session's recording as the gate sees it (lib/access/recording.ts), or undefined for no such session or one taken down. */
export async function recordingOf(sessionId: string): Promise<GatedContent | undefined> {
  const row = await recordingRow(eq(sessions.id, sessionId));
  // Its asset taken down (DELETE /asset/{id}?purge=true): the same content, gone from every path.
  if (!row || row.asset?.purgedAt) return undefined;
  return recordingContent({ ...row, asset: row.asset ?? undefined });
}

/**
 * The replay of a stream's latest broadcast, if it was recorded: what plays it (the session's
 * recording playlist while the broadcast is on, during its reconnect window and while its asset is
 * processed; the asset's HLS, with its renditions, once it plays) and the gate of that URL, which
 * is the recording's. None for a broadcast not recorded, a recording that failed, or one whose
 * asset was deleted.
 */
export async function latestRecording(streamId: string): Promise<{ url: string; content: GatedContent } | undefined> {
  const row = await recordingRow(eq(sessions.parentId, streamId));
  if (!row?.record || !(row.live || row.recordingStatus === "waiting" || row.recordingStatus === "ready")) return undefined;
  const { asset } = row;
  if (asset?.deletedAt || asset?.purgedAt) return undefined;
  const content = recordingContent({ ...row, asset: asset ?? undefined });
  if (asset?.phase === "ready" && asset.files?.hls) {
    // The asset's URLs take tokens bound to its playback id, as /asset/<playbackId>/... checks them.
    return { url: assetHlsUrl(asset.playbackId), content: { ...content, tokenSubject: undefined } };
  }
  return { url: recordingPlaylistUrl(row.sessionId), content };
}

/**
 * A session's recording as an HLS playlist, built from the segments its nodes
 * stored: every epoch (a reconnect, perhaps on another node) in order, a
 * discontinuity between them; closed (VOD) while the session is not live.
 */
export async function recordingPlaylist(sessionId: string): Promise<string | undefined> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId), columns: { isActive: true } });
  if (!session) return undefined;
  const segments = await recordedSegments(sessionId);
  if (!segments.length) return undefined;
  const listed = segments.map((s, i) => ({
    uri: `${s.epoch}/${s.file}`,
    duration: s.duration,
    ...(s.startedAt !== null ? { programDateTime: s.startedAt } : {}),
    discontinuity: i > 0 && segments[i - 1].epoch !== s.epoch,
  }));
  return mediaPlaylist(listed, { type: session.isActive ? "EVENT" : "VOD", durationDigits: 6 });
}

/** The MP4 of a session's recording once it became a ready asset: that asset's id and name (for the download's name). */
export async function recordingMp4(sessionId: string): Promise<{ assetId: string; name: string } | undefined> {
  const [session] = await db()
    .select({ assetId: sessions.assetId, recordingStatus: sessions.recordingStatus, name: assets.name })
    .from(sessions)
    .innerJoin(assets, eq(assets.id, sessions.assetId))
    .where(eq(sessions.id, sessionId));
  if (!session?.assetId || session.recordingStatus !== "ready") return undefined;
  return { assetId: session.assetId, name: session.name };
}

/** The stored segments of a session's recording, in order, with their store keys. */
export async function recordedSegments(sessionId: string) {
  const rows = await db()
    .select()
    .from(recordingSegments)
    .where(eq(recordingSegments.sessionId, sessionId))
    .orderBy(asc(recordingSegments.epoch), asc(recordingSegments.seq));
  return rows.map((r) => ({ ...r, key: recordingKey(sessionId, r.epoch, r.file) }));
}
