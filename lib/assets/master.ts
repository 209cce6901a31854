import { masterPlaylist, type Subtitles, type Variant } from "@/lib/av/hls";
import type { AssetRow, RenditionRow } from "./service";
import type { TextTrackRow } from "./text-tracks";

/**
 * The master playlist of an asset (its playbackUrl), built from its renditions as
 * they become ready: ABR arrives rung by rung, without waiting for the whole ladder.
 * The source's remux (playable first, its keyframes wherever the uploader put them)
 * stays listed until the ladder is complete, and after that only if no rendition is
 * as tall: the ladder's own renditions are keyframe-aligned with each other, the remux is not.
 * Caption tracks are its subtitles group, each a playlist of its one WebVTT file.
 */
export function assetMasterPlaylist(asset: AssetRow, renditions: RenditionRow[], textTracks: TextTrackRow[] = []): { playlist: string; final: boolean } {
  const ready = renditions.filter((r) => r.phase === "ready");
  const final = renditions.every((r) => r.phase !== "transcoding");
  const variants: Variant[] = ready.map((r) => ({
    uri: `${r.name}/index.m3u8`,
    name: r.name,
    bandwidth: r.bandwidth ?? r.bitrate,
    averageBandwidth: r.averageBandwidth ?? undefined,
    width: r.width,
    height: r.height,
    frameRate: r.fps,
    codecs: r.codecs ? r.codecs.split(",") : [],
  }));
  const spec = asset.videoSpec;
  const video = spec?.tracks.find((t) => t.type === "video");
  const tallest = Math.max(0, ...ready.map((r) => Math.min(r.width, r.height)));
  if (video && (!final || tallest < Math.min(video.width, video.height))) {
    // The HLS source is the original's remux, or its H.264 transcode (lib/assets/processing/source-transcode.ts).
    const transcoded = asset.files?.transcoded;
    const bitrate = transcoded?.bitrate ?? spec?.bitrate ?? (asset.size && spec?.duration ? (asset.size * 8) / spec.duration : 0);
    const { width, height } = transcoded ?? video;
    variants.push({ uri: "source.m3u8", name: "source", bandwidth: bitrate || 1, width, height, frameRate: video.fps, codecs: [] });
  }
  variants.sort((a, b) => b.bandwidth - a.bandwidth);
  const subtitles: Subtitles[] = textTracks.map((t) => ({ uri: `captions/${t.id}.m3u8`, name: t.name, language: t.language }));
  return { playlist: masterPlaylist(variants, subtitles), final };
}
