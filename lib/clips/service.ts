import type { PlaybackPolicy } from "@/lib/access/schema";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { assets, sessions, streams } from "@/db/schema";
import { pageOf, type Page } from "@/db/pagination";
import type { PageQuery } from "@/lib/api/list-query";
import { createAsset, serializeAsset } from "@/lib/assets/service";
import type { Asset, AssetSource } from "@/lib/assets/schema";
import { config } from "@/lib/config";
import { invalid, notFound } from "@/lib/errors";
import { clipRequested } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { findSessionRow } from "@/lib/sessions/service";
import { serializeTask, spawnTask } from "@/lib/tasks/service";
import type { ClipParams, ClipPayload } from "./schema";
import { clippableRange, EDGE_TOLERANCE_MS, liveEdgeWaitMs, timelineFor, timelineRanges } from "./timeline";

/**
 * POST /clip: everything is checked here, before anything is created (a refused
 * clip leaves no asset and no task); the cut itself is the clip-make job's.
 */

/** Shorter than this holds barely a frame. */
const MIN_CLIP_MS = 100;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const iso = (ms: number) => new Date(ms).toISOString();

function checkRange(startTime: number, endTime: number) {
  if (endTime <= startTime) throw invalid("endTime must be after startTime");
  if (endTime - startTime < MIN_CLIP_MS) throw invalid(`a clip must last at least ${MIN_CLIP_MS} ms`);
  const max = config().CLIP_MAX_S;
  if (endTime - startTime > max * 1000) throw invalid(`a clip may last at most ${max} s (asked: ${seconds(endTime - startTime)})`);
}

interface Resolved {
  name: string;
  /** A clip is watched as its source is. */
  playbackPolicy: PlaybackPolicy | null;
  source: AssetSource;
  params: ClipParams;
  inputAssetId?: string;
}

/** How far the session's media runs behind this server's clock, in words, when it does by more than a segment or two. */
function lagNote(edge: number, now: number) {
  const behind = now - edge;
  return behind > liveEdgeWaitMs() ? `; the stream's media runs ${seconds(behind)} behind this server's clock` : "";
}

/**
 * A stream's times are on the session's media timeline (its playlists' program date
 * times), which runs behind the wall clock when the media came slower than real time:
 * "now" is the live edge, the end of the newest media stored, and a range is checked
 * against what the session keeps, never against the wall clock.
 */
async function fromStream(userId: string, stream: typeof streams.$inferSelect, body: ClipPayload): Promise<Resolved> {
  const session = body.sessionId
    ? await db().query.sessions.findFirst({ where: and(eq(sessions.id, body.sessionId), eq(sessions.parentId, stream.id), eq(sessions.userId, userId)) })
    : await db().query.sessions.findFirst({ where: eq(sessions.parentId, stream.id), orderBy: desc(sessions.createdAt) });
  if (!session) throw body.sessionId ? notFound("session") : invalid("the stream has no session to clip from: it has never been live");
  const timelines = (await timelineRanges([session])).get(session.id)!;
  const kept = clippableRange(timelines, session.isActive);
  if (!kept) throw invalid("nothing of this session is kept to clip from (yet)");
  const endTime = body.endTime ?? kept.endTime;
  checkRange(body.startTime, endTime);
  if (session.isActive && endTime > kept.endTime + liveEdgeWaitMs()) {
    throw invalid(
      `endTime is after the newest media of the stream (its live edge: ${iso(kept.endTime)}${lagNote(kept.endTime, Date.now())}); ` +
        "times are the stream's media times, as its playlists' EXT-X-PROGRAM-DATE-TIME show them (a session's clippable.endTime is its live edge)",
    );
  }
  if (!session.isActive && endTime > kept.endTime + EDGE_TOLERANCE_MS) {
    throw invalid(`endTime is after the end of the session (${iso(kept.endTime)})`);
  }
  const timeline = timelineFor(timelines, body.startTime, session.isActive);
  if (!timeline) {
    const why = session.record ? "" : ` (without recording, the last ${config().LIVE_DVR_WINDOW_S} s of a session are kept)`;
    throw invalid(`startTime is before the oldest media kept of this session (${iso(kept.startTime)})${why}`);
  }
  return {
    name: body.name ?? `Clip of ${stream.name}`,
    playbackPolicy: stream.playbackPolicy,
    source: { type: "clip", sourceId: stream.id, playbackId: stream.playbackId, sessionId: session.id },
    params: {
      clipStrategy: { startTime: body.startTime, endTime, playbackId: stream.playbackId },
      inputId: stream.id,
      sessionId: session.id,
      timeline: timeline.kind,
    },
  };
}

function fromAsset(asset: typeof assets.$inferSelect, body: ClipPayload): Resolved {
  if (body.sessionId) throw invalid("sessionId is for clips of streams, not of assets");
  if (asset.phase !== "ready") throw invalid(`the asset is not ready to clip (phase: ${asset.phase})`);
  const duration = Math.floor((asset.videoSpec?.duration ?? 0) * 1000);
  const endTime = body.endTime ?? duration;
  checkRange(body.startTime, endTime);
  if (endTime > duration + EDGE_TOLERANCE_MS) throw invalid(`endTime is after the end of the asset (${seconds(duration)}; times are ms from its start)`);
  return {
    name: body.name ?? `Clip of ${asset.name}`,
    playbackPolicy: asset.playbackPolicy,
    source: { type: "clip", sourceId: asset.id, playbackId: asset.playbackId, assetId: asset.id },
    params: { clipStrategy: { startTime: body.startTime, endTime: Math.min(endTime, duration), playbackId: asset.playbackId }, inputId: asset.id },
    inputAssetId: asset.id,
  };
}

export async function createClip(userId: string, body: ClipPayload) {
  const stream = await db().query.streams.findFirst({
    where: and(eq(streams.playbackId, body.playbackId), eq(streams.userId, userId), isNull(streams.deletedAt)),
  });
  const asset = stream
    ? undefined
    : await db().query.assets.findFirst({ where: and(eq(assets.playbackId, body.playbackId), eq(assets.userId, userId), isNull(assets.deletedAt)) });
  if (!stream && !asset) throw notFound("playback id");
  const clip = stream ? await fromStream(userId, stream, body) : fromAsset(asset!, body);

  const row = await createAsset(userId, { name: clip.name, source: clip.source, phase: "waiting", playbackPolicy: clip.playbackPolicy });
  const task = await spawnTask({ userId, type: "clip", inputAssetId: clip.inputAssetId, outputAssetId: row.id, params: { clip: clip.params } });
  await emit(clipRequested, { assetId: row.id, taskId: task.id });
  return { asset: serializeAsset(row), task: serializeTask(task) };
}

const clipsWhere = (userId: string, field: "sourceId" | "sessionId", id: string) =>
  and(eq(assets.userId, userId), isNull(assets.deletedAt), sql`${assets.source}->>'type' = 'clip'`, sql`${assets.source}->>${field} = ${id}`);

/** GET /stream/{id}/clips: clips of any of the stream's sessions, newest first. */
export async function listStreamClips(userId: string, streamId: string, page: PageQuery): Promise<Page<Asset>> {
  const stream = await db().query.streams.findFirst({ where: and(eq(streams.id, streamId), eq(streams.userId, userId), isNull(streams.deletedAt)) });
  if (!stream) throw notFound("stream");
  return pageOf(assets, clipsWhere(userId, "sourceId", streamId), page, serializeAsset);
}

/** GET /session/{id}/clips */
export async function listSessionClips(userId: string, sessionId: string, page: PageQuery): Promise<Page<Asset>> {
  if (!(await findSessionRow(userId, sessionId))) throw notFound("session");
  return pageOf(assets, clipsWhere(userId, "sessionId", sessionId), page, serializeAsset);
}
