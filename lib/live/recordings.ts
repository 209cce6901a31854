import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { assets, sessions, streams } from "@/db/schema";
import { serializeAsset } from "@/lib/assets/service";
import { newId, newPlaybackId } from "@/lib/ids";
import { runFfmpeg } from "@/lib/media/ffmpeg";
import { serializeSession } from "@/lib/sessions/service";
import { serializeStream } from "@/lib/streams/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import { publicOrigin } from "@/lib/origin";
import { mediaDir } from "./playback";

/**
 * After a recorded session ends and its reconnect window passes with no
 * reconnect, its recording becomes an asset: the HLS the recorder wrote (already
 * playable since the broadcast ended) plus an mp4 remuxed from it.
 */
export async function sessionStillEnded(sessionId: string, endedAt: number): Promise<boolean> {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  return Boolean(session && !session.isActive && session.endedAt === endedAt && session.recordingStatus === "waiting");
}

export async function remuxRecording(sessionId: string): Promise<{ size: number; sha256: string; md5: string }> {
  const dir = path.join(mediaDir(), "recordings", sessionId);
  const out = path.join(dir, "video.mp4");
  const tmp = path.join(dir, "video.tmp.mp4");
  const proc = runFfmpeg(["-hide_banner", "-loglevel", "error", "-y", "-i", path.join(dir, "index.m3u8"), "-c", "copy", "-movflags", "+faststart", "-f", "mp4", tmp]);
  const code = await proc.exited;
  if (code !== 0) throw new Error(`remuxing the recording failed (${code}): ${proc.stderrTail()}`);
  fs.renameSync(tmp, out);
  const sha256 = createHash("sha256");
  const md5 = createHash("md5");
  let size = 0;
  for await (const chunk of fs.createReadStream(out)) {
    sha256.update(chunk as Buffer);
    md5.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: sha256.digest("hex"), md5: md5.digest("hex") };
}

export async function recordingToAsset(sessionId: string, file: { size: number; sha256: string; md5: string }) {
  const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  if (!session) return;
  const stream = await db().query.streams.findFirst({ where: eq(streams.id, session.parentId) });
  const now = Date.now();
  const files = { hls: `/recordings/${sessionId}/index.m3u8`, mp4: `/recordings/${sessionId}/video.mp4` };
  const [asset] = await db()
    .insert(assets)
    .values({
      id: session.assetId ?? newId(),
      userId: session.userId,
      name: `${session.name} (recording)`,
      playbackId: newPlaybackId(),
      phase: "ready",
      updatedAt: now,
      size: file.size,
      hash: [
        { hash: file.md5, algorithm: "md5" },
        { hash: file.sha256, algorithm: "sha256" },
      ],
      source: { type: "recording", sessionId },
      files,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!asset) return; // done by an earlier attempt of this step
  const [ready] = await db()
    .update(sessions)
    .set({ recordingStatus: "ready", mp4Url: `${publicOrigin()}${files.mp4}`, assetId: asset.id })
    .where(eq(sessions.id, sessionId))
    .returning();
  const about = { ...(stream ? { stream: serializeStream(stream) } : {}), payload: { session: serializeSession(ready), asset: serializeAsset(asset) } };
  await notifyWebhooks(session.userId, "asset.created", { payload: { asset: serializeAsset(asset) } });
  await notifyWebhooks(session.userId, "asset.ready", { payload: { asset: serializeAsset(asset) } });
  await notifyWebhooks(session.userId, "recording.ready", about);
}
