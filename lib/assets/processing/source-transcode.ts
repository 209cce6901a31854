// biome-ignore-all format: ffmpeg command lines, each option beside its value
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";
import { ffmpeg, userMediaInput } from "@/lib/av/ffmpeg";
import { probe } from "@/lib/av/probe";
import { inScratch } from "@/lib/scratch";
import { objects } from "@/lib/storage";
import { updateTask } from "@/lib/tasks/service";
import type { SourcePlan } from "./inspect";
import { sourceKey, transcodedSourceKey } from "../keys";
import { assetById, updateAsset } from "../service";
import { SEGMENT_S, withTranscodeSlot } from "./transcode";

/** Where the asset's progress stands when the transcode ends: the HLS packaging and thumbnail are quick. */
const TRANSCODED_PROGRESS = 0.95;
const PROGRESS_EVERY_MS = 2000;

/**
 * The original's H.264/AAC transcode, for a source browsers cannot play as it is (HEVC,
 * VP9, AV1, ProRes, Opus, PCM, HDR, rotated...): an MP4 at the original's size (upright,
 * square pixels, even dimensions), SDR BT.709 8-bit 4:2:0, keyframes every segment (or the
 * original's H.264 as it is, when only its sound needed converting). The
 * asset's HLS source is its remux, and the ladder, thumbnails and clips are made from it
 * (lib/assets/processing/base.ts); the original stays as it was uploaded, for download. A background
 * encode (lower CPU priority, within the machine's transcode slots), called off with the asset.
 */
export async function transcodeSource(assetId: string, taskId: string | undefined, plan: SourcePlan, from: number): Promise<void> {
  const asset = await assetById(assetId);
  if (asset?.phase !== "processing" || asset.files?.transcoded) return; // done before a crash, or called off
  const duration = asset.videoSpec?.duration ?? 0;
  let reported = Date.now();
  const onProgress = (fields: Record<string, string>) => {
    const done = Number(fields.out_time_us) / 1e6 / duration;
    if (!(done > 0) || Date.now() - reported < PROGRESS_EVERY_MS) return;
    reported = Date.now();
    const progress = from + (TRANSCODED_PROGRESS - from) * Math.min(done, 1);
    void updateAsset(assetId, { progress }, ["processing"]).catch(() => undefined);
    if (taskId) void updateTask(taskId, { progress }).catch(() => undefined);
  };
  const transcoded = await withTranscodeSlot(() =>
    inScratch(`${assetId}-h264`, async (dir) => {
      const file = path.join(dir, "source.mp4");
      const input = await objects().mediaInput(sourceKey(assetId));
      await ffmpeg(sourceTranscodeArgs(input, plan, file), { onProgress });
      const info = await probe(file);
      const video = info.streams.find((s) => s.codec_type === "video");
      const { size } = await fs.promises.stat(file);
      const seconds = Number(info.format.duration) || duration;
      await objects().write(transcodedSourceKey(assetId), fs.createReadStream(file), { contentType: "video/mp4" });
      return { key: transcodedSourceKey(assetId), width: video?.width ?? 0, height: video?.height ?? 0, bitrate: seconds ? Math.round((size * 8) / seconds) : 0 };
    }),
  );
  const now = await assetById(assetId);
  if (now) await updateAsset(assetId, { files: { ...now.files, transcoded }, progress: TRANSCODED_PROGRESS }, ["processing"]);
  if (taskId) await updateTask(taskId, { progress: TRANSCODED_PROGRESS });
}

/**
 * Video browsers play as it is (only its audio needs encoding: a camera's H.264 with PCM) is
 * copied. Else encoded near-transparently (CRF 18), since the ladder is encoded from this
 * again; ffmpeg turns a rotated picture upright by itself (autorotate) and leaves the
 * rotation out of what it writes.
 */
export function sourceTranscodeArgs(input: string, plan: SourcePlan, output: string): string[] {
  const audio = plan.audio !== undefined;
  return [
    ...userMediaInput(input, plan.demuxer),
    "-map", `0:${plan.video}`, ...(audio ? ["-map", `0:${plan.audio}`] : []),
    ...(plan.videoPlays ? ["-c:v", "copy"] : videoEncode(plan)),
    ...(audio ? ["-c:a", "aac", "-b:a", "160k", ...((plan.audioChannels ?? 2) > 2 ? ["-ac", "2"] : [])] : []),
    "-max_muxing_queue_size", "4096", "-movflags", "+faststart", "-f", "mp4", output,
  ];
}

function videoEncode(plan: SourcePlan): string[] {
  return [
    "-vf", pictureFilter(plan),
    "-c:v", "libx264", "-preset", config().TRANSCODE_PRESET, "-crf", "18", "-profile:v", "high", "-pix_fmt", "yuv420p",
    "-force_key_frames", `expr:gte(t,n_forced*${SEGMENT_S})`,
    ...(plan.hdr ? ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv"] : []),
  ];
}

/**
 * HDR (PQ or HLG, BT.2020) to SDR BT.709: to linear light, then the BT.709 primaries,
 * Hable's curve (keeps highlights' detail, no clipping), BT.709 transfer and matrix, 8-bit.
 * Then square pixels and even dimensions, which 4:2:0 H.264 needs (a phone's odd sizes).
 */
export function pictureFilter(plan: Pick<SourcePlan, "hdr">): string {
  const filters: string[] = [];
  if (plan.hdr) {
    const { transfer, primaries, matrix, range } = plan.hdr;
    filters.push(
      `zscale=transferin=${transfer}:primariesin=${primaries}:matrixin=${matrix}:rangein=${range}:transfer=linear:npl=100`,
      "format=gbrpf32le",
      "zscale=primaries=bt709",
      "tonemap=tonemap=hable:desat=0",
      "zscale=transfer=bt709:matrix=bt709:range=tv",
      "format=yuv420p",
    );
  }
  filters.push("scale=trunc(iw*sar/2)*2:trunc(ih/2)*2", "setsar=1");
  return filters.join(",");
}
