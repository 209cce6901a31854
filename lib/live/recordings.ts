import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { sessions, streams } from "@/db/schema";
import { sourceArrived, storeSource } from "@/lib/assets/pipeline";
import { assetById, createAsset, serializeAsset } from "@/lib/assets/service";
import { newId } from "@/lib/ids";
import { assetSourceStored } from "@/inngest/events";
import { emit } from "@/lib/jobs/emit";
import { runFfmpeg } from "@/lib/media/ffmpeg";
import { publicOrigin } from "@/lib/origin";
import { serializeSession } from "@/lib/sessions/service";
import { serializeStream } from "@/lib/streams/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import { mediaDir } from "./playback";

/**
 * After a recorded session ends and its reconnect window passes with no
 * reconnect, its recording becomes an asset: the HLS the recorder wrote (already
 * playable since the broadcast ended) is remuxed to an mp4, which goes through
 * the same asset pipeline as an upload.
 */
export async function sessionStillEnded(sessionId: string, endedAt: number): Promise<boolean> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  return Boolean(session && !session.isActive && session.endedAt === endedAt && session.recordingStatus === "waiting");
}

const recordingMp4 = (sessionId: string) => path.join(mediaDir(), "recordings", sessionId, "video.mp4");

export async function remuxRecording(sessionId: string): Promise<void> {
  const dir = path.join(mediaDir(), "recordings", sessionId);
  const tmp = path.join(dir, "video.tmp.mp4");
  const proc = runFfmpeg(["-hide_banner", "-loglevel", "error", "-y", "-i", path.join(dir, "index.m3u8"), "-c", "copy", "-movflags", "+faststart", "-f", "mp4", tmp]);
  const code = await proc.exited;
  if (code !== 0) throw new Error(`remuxing the recording failed (${code}): ${proc.stderrTail()}`);
  fs.renameSync(tmp, recordingMp4(sessionId));
}

/** The session's asset (id fixed on the session first, so a retried step finds the same one). */
export async function recordingToAsset(sessionId: string): Promise<void> {
  let session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  if (!session) return;
  if (!session.assetId) {
    [session] = await db().update(sessions).set({ assetId: newId() }).where(eq(sessions.id, sessionId)).returning();
  }
  const assetId = session.assetId!;
  const asset =
    (await assetById(assetId)) ??
    (await createAsset(session.userId, `${session.name} (recording)`, { type: "recording", sessionId }, "processing", assetId));
  if (asset.phase !== "processing" || asset.files?.source) return; // an earlier attempt got through
  await storeSource(assetId, fs.createReadStream(recordingMp4(sessionId)));
  await sourceArrived(assetId, undefined, 0.1);

  const [ready] = await db()
    .update(sessions)
    .set({ recordingStatus: "ready", mp4Url: `${publicOrigin()}/recordings/${sessionId}/video.mp4` })
    .where(eq(sessions.id, sessionId))
    .returning();
  const stream = await db().query.streams.findFirst({ where: eq(streams.id, session.parentId) });
  await notifyWebhooks(session.userId, "recording.ready", {
    ...(stream ? { stream: serializeStream(stream) } : {}),
    payload: { session: serializeSession(ready), asset: serializeAsset((await assetById(assetId))!) },
  });
  await emit(assetSourceStored, { assetId });
}
