// biome-ignore-all format: ffmpeg command lines, each option beside its value
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { sessions, streams } from "@/db/schema";
import { failAsset } from "@/lib/assets/processing/pipeline";
import { sourceArrived, storeSource } from "@/lib/assets/processing/store-source";
import { assetById, createAsset, serializeAsset } from "@/lib/assets/service";
import { newId } from "@/lib/ids";
import { runFfmpeg } from "@/lib/av/ffmpeg";
import { reconnectWindowOf, serializeSession } from "@/lib/sessions/service";
import { serializeStream } from "@/lib/streams/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import { objects } from "@/lib/storage";
import { recordedSegments } from "./playback";

/** When the reconnect window of a session that ended at `endedAt` closes (ms). */
export async function reconnectDeadline(sessionId: string, endedAt: number): Promise<number> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId), columns: { reconnectWindow: true } });
  return endedAt + (session ? reconnectWindowOf(session) : 0) * 1000;
}

/**
 * After a recorded session ends and its reconnect window passes with no
 * reconnect, its recording becomes an asset: the segments its nodes stored
 * (already playable as HLS since the broadcast ended) are remuxed to an mp4,
 * which goes through the same asset pipeline as an upload.
 */
export async function sessionStillEnded(sessionId: string, endedAt: number): Promise<boolean> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  return Boolean(session && !session.isActive && session.endedAt === endedAt && session.recordingStatus === "waiting");
}

/**
 * Remuxes every stored segment of the recording, all its parts in order, into one
 * mp4 (in a scratch folder of this worker): the concat demuxer reads them straight
 * from the store (files, or pre-signed URLs) and lays each part after the last.
 */
async function remuxRecording(sessionId: string, mp4: string): Promise<void> {
  const store = objects();
  const segments = await recordedSegments(sessionId);
  if (!segments.length) throw new Error(`session ${sessionId} has no recorded segment`);
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const list = ["ffconcat version 1.0"];
  for (const s of segments) list.push(`file ${quote(await store.mediaInput(s.key))}`, `duration ${s.duration.toFixed(6)}`);
  const listFile = path.join(path.dirname(mp4), "segments.ffconcat");
  await fs.promises.writeFile(listFile, list.join("\n") + "\n");
  const proc = runFfmpeg([
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "concat", "-safe", "0", "-protocol_whitelist", "file,http,https,tcp,tls,crypto", "-i", listFile,
    "-c", "copy", "-movflags", "+faststart", "-f", "mp4", mp4,
  ], { background: true });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`remuxing the recording failed (${code}): ${proc.stderrTail()}`);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "Studio — 23 Nov 2026 14:05 UTC": the stream's name and when the broadcast started, in UTC
 * and English month names so it reads the same wherever the asset is listed from.
 */
export function recordingName(streamName: string, startedAt: number): string {
  const d = new Date(startedAt);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${streamName} — ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/**
 * The session's asset with the recording as its source (id fixed on the session first, so a
 * retried step finds the same one); answers its id. Processing follows (the recording-finalize
 * function), and recordingPlayable once the asset plays.
 */
export async function recordingToAsset(sessionId: string): Promise<string | undefined> {
  let session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  if (!session) return undefined;
  if (!session.assetId) {
    [session] = await db().update(sessions).set({ assetId: newId() }).where(eq(sessions.id, sessionId)).returning();
  }
  const assetId = session.assetId!;
  const parent = await db().query.streams.findFirst({ where: eq(streams.id, session.parentId), columns: { name: true } });
  const asset =
    (await assetById(assetId)) ??
    (await createAsset(session.userId, {
      // The stream's name now (it may have been renamed since the broadcast started).
      name: recordingName(parent?.name ?? session.name, session.createdAt),
      source: { type: "recording", sessionId, streamId: session.parentId },
      phase: "processing",
      id: assetId,
      // Watched as it was before it became an asset: under its broadcast's policy, not the stream's now.
      playbackPolicy: session.playbackPolicy,
    }));
  if (asset.phase !== "processing" || asset.files?.source) return assetId; // an earlier attempt got through
  const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), "castline-recording-"));
  try {
    const mp4 = path.join(scratch, "video.mp4");
    await remuxRecording(sessionId, mp4);
    await storeSource(assetId, fs.createReadStream(mp4));
  } finally {
    await fs.promises.rm(scratch, { recursive: true, force: true });
  }
  await sourceArrived(assetId, undefined, 0.1);
  return assetId;
}

/**
 * The recording's asset plays: the session says so (recordingStatus, mp4Url) and
 * `recording.ready` fires, after `asset.ready`, so a receiver can play what it names.
 */
export async function recordingPlayable(sessionId: string): Promise<void> {
  const [ready] = await db()
    .update(sessions)
    .set({ recordingStatus: "ready" })
    .where(eq(sessions.id, sessionId))
    .returning();
  const asset = ready?.assetId ? await assetById(ready.assetId) : undefined;
  if (!ready || !asset) return;
  const stream = await db().query.streams.findFirst({ where: eq(streams.id, ready.parentId) });
  await notifyWebhooks(ready.userId, "recording.ready", {
    ...(stream ? { stream: serializeStream(stream) } : {}),
    payload: { session: serializeSession(ready, { recordingPlaybackId: asset.playbackId }), asset: serializeAsset(asset) },
  });
}

/** The recording could not become a playable asset: the session says so, and its asset (if made) says why. */
export async function recordingFailed(sessionId: string, reason: string): Promise<void> {
  const [failed] = await db().update(sessions).set({ recordingStatus: "failed" }).where(eq(sessions.id, sessionId)).returning();
  if (failed?.assetId) await failAsset(failed.assetId, undefined, reason);
}
