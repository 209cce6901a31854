// biome-ignore-all format: ffmpeg command lines, each option beside its value
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { commitThenAnnounce } from "@/db/client";
import { ffmpeg } from "@/lib/av/ffmpeg";
import { inScratch } from "@/lib/scratch";
import { objects } from "@/lib/storage";
import { updateTask, writeTaskChange } from "@/lib/tasks/service";
import { hashList, Hasher } from "./hashing";
import { mediaBase } from "./base";
import { inspectMedia, MediaRejected, type SourcePlan } from "./inspect";
import { sourceVideo } from "./ladder";
import { hlsPrefix, hlsSourceKey, metadataKey, sourceKey, thumbnailKey } from "../keys";
import type { VideoSpec } from "../schema";
import { assetById, renditionsOf, updateAsset, writeAssetChange } from "../service";

/**
 * The asset pipeline, one function per durable step: store the source (hashing it
 * on the way in: lib/assets/processing/store-source.ts), inspect it (ffprobe: accept
 * or reject, and plan), transcode it to H.264/AAC when browsers cannot play it as it is
 * (lib/assets/processing/source-transcode.ts), make it playable (HLS by remuxing, no
 * re-encode, plus a thumbnail). Each step can run again after a crash and ends in the
 * same state. The ABR ladder follows once the asset is playable
 * (lib/assets/processing/renditions.ts, lib/assets/processing/transcode.ts).
 */

export type Inspection = { ok: true; videoSpec: VideoSpec; plan: SourcePlan } | { ok: false; reason: string };

/** Probes the stored source; hashes it first when it arrived without passing through the app (S3 PUT). */
export async function inspectSource(assetId: string, taskId: string | undefined, progress: number): Promise<Inspection> {
  const asset = await assetById(assetId);
  if (!asset) return { ok: false, reason: "the asset no longer exists" };
  const key = sourceKey(assetId);
  if (!asset.hash) {
    const hasher = new Hasher();
    // biome-ignore lint/correctness/useYield: a sink that drains the stream; only the hasher's digest is wanted
    await pipeline(await objects().read(key), hasher, async function* (chunks) {
      for await (const _ of chunks); // only the digest is wanted
    });
    const digest = hasher.digest();
    await updateAsset(assetId, { size: digest.size, hash: hashList(digest), files: { source: key } });
  }
  try {
    const { videoSpec, plan } = await inspectMedia(await objects().mediaInput(key));
    await updateAsset(assetId, { videoSpec, progress });
    if (taskId) await updateTask(taskId, { progress });
    return { ok: true, videoSpec, plan };
  } catch (err) {
    if (err instanceof MediaRejected) return { ok: false, reason: err.message };
    throw err;
  }
}

/**
 * HLS by remuxing the asset's base (lib/assets/processing/base.ts: the original when browsers play
 * it as it is, no re-encode, playable within seconds whatever its length; else its
 * H.264 transcode) and a thumbnail, written to the store; then the asset is ready.
 */
export async function makePlayable(assetId: string, taskId: string | undefined): Promise<void> {
  const asset = await assetById(assetId);
  if (!asset || asset.phase === "ready") return;
  const store = objects();
  // Opened as the container it was found to be (inspectMedia), and nothing it names.
  const { input: source } = await mediaBase(asset);
  // A run of this step killed mid-way left its folder in its process's scratch, swept once that process is gone.
  await inScratch(assetId, async (work) => {
    const duration = asset.videoSpec?.duration ?? 0;
    await Promise.all([
      ffmpeg([
        ...source, "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy",
        "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
        "-hls_segment_filename", path.join(work, "seg_%05d.ts"), path.join(work, "source.m3u8"),
      ]),
      thumbnail(source, duration, path.join(work, "thumbnail.jpg")),
    ]);
    const files = (await fs.promises.readdir(work)).filter((f) => f.endsWith(".ts")).sort();
    // Segments first, the playlist last: a playlist in the store always has its segments.
    for (const file of [...files, "source.m3u8"]) {
      await store.write(`${hlsPrefix(assetId)}/${file}`, fs.createReadStream(path.join(work, file)), {
        contentType: file.endsWith(".ts") ? "video/mp2t" : "application/vnd.apple.mpegurl",
      });
    }
    await store.write(thumbnailKey(assetId), fs.createReadStream(path.join(work, "thumbnail.jpg")), { contentType: "image/jpeg" });
  });

  const assetSpec = { name: asset.name, type: "video", size: asset.size, hash: asset.hash, videoSpec: asset.videoSpec };
  if (taskId) await store.write(metadataKey(assetId), Readable.from([Buffer.from(JSON.stringify(assetSpec))]), { contentType: "application/json" });
  await commitThenAnnounce(async (tx) => {
    const ready = await writeAssetChange(tx, assetId, {
      phase: "ready",
      // A video's ABR ladder follows (the next step plans it): from the moment it plays the asset
      // reads as transcoding (progress 0), never as settled in between, so a page or client that
      // stops polling a settled asset never misses the renditions.
      progress: sourceVideo(asset.videoSpec) ? 0 : null,
      files: { ...asset.files, source: sourceKey(assetId), hls: hlsPrefix(assetId), hlsSource: hlsSourceKey(assetId), thumbnail: thumbnailKey(assetId) },
    });
    if (!ready || !taskId) return [ready];
    const output = { import: { assetSpec, videoFilePath: sourceKey(assetId), metadataFilePath: metadataKey(assetId) } };
    return [ready, await writeTaskChange(tx, taskId, { phase: "completed", progress: 1, output })];
  });
}

/** A picture a second in (or the first one, for a video whose pictures end sooner). */
async function thumbnail(source: string[], duration: number, file: string): Promise<void> {
  for (const at of [Math.min(1, duration / 2), 0]) {
    await ffmpeg(["-ss", String(at), ...source, "-frames:v", "1", "-vf", "scale=480:-2", "-q:v", "4", file]);
    if (fs.existsSync(file)) return;
  }
  throw new Error("no picture of the video could be decoded for its thumbnail");
}

/** The end of an asset that cannot be made playable: the message says why, on asset and task. */
export async function failAsset(assetId: string, taskId: string | undefined, reason: string): Promise<void> {
  // A deleted asset's work was called off (lib/assets/cancel.ts): its task says so already.
  const asset = await assetById(assetId);
  if (!asset || asset.deletedAt) return;
  // A playable asset stays playable: what failed after that (renditions, previews) is reported on
  // its own. A ladder never planned is not coming: the asset stops reading as transcoding.
  const clearProgress = asset.phase === "ready" && asset.progress !== null && !(await renditionsOf(assetId)).length;
  await commitThenAnnounce(async (tx) => [
    asset.phase !== "ready"
      ? await writeAssetChange(tx, assetId, { phase: "failed", progress: null, errorMessage: reason }, ["waiting", "uploading", "processing"])
      : clearProgress
        ? await writeAssetChange(tx, assetId, { progress: null })
        : undefined,
    taskId ? await writeTaskChange(tx, taskId, { phase: "failed", errorMessage: reason }) : undefined,
  ]);
}
