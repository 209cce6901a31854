import { containerNamed } from "@/lib/av/containers";
import { userMediaInput } from "@/lib/av/ffmpeg";
import { objects } from "@/lib/storage";
import { sourceKey } from "../keys";
import type { AssetRow } from "../service";

/**
 * The file an asset's HLS source, ladder, seek thumbnails and clips are made from: its
 * H.264/AAC transcode when browsers cannot play the original as it is, else the original
 * itself. Returned as ffmpeg input arguments that open it as the one container it was
 * found to be, and nothing it names (userMediaInput).
 */
export async function mediaBase(asset: Pick<AssetRow, "id" | "files" | "videoSpec">): Promise<{ key: string; url: string; input: string[] }> {
  const transcoded = asset.files?.transcoded;
  const key = transcoded?.key ?? sourceKey(asset.id);
  const demuxer = transcoded ? "mov" : containerNamed(asset.videoSpec?.format).demuxer;
  const url = await objects().mediaInput(key);
  return { key, url, input: userMediaInput(url, demuxer) };
}
