import type { Asset } from "@/lib/assets/schema";

/** What the asset views show of an asset, worded and formatted once. */

const bytes = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });
const BYTE_UNITS = ["bytes", "KB", "MB", "GB", "TB"];

/** Binary units, as browsers show downloads, so the 100 MiB upload threshold reads as 100 MB. */
export function formatBytes(n: number): string {
  let unit = 0;
  while (n >= 1024 && unit < BYTE_UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${bytes.format(unit === 0 ? Math.round(n) : n)} ${BYTE_UNITS[unit]}`;
}

export const formatSpeed = (bytesPerSecond: number) => `${formatBytes(bytesPerSecond)}/s`;

/** A video's length as players show it: 4:05, 1:02:09. */
export function formatTimecode(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export const percent = (fraction: number) => Math.round(Math.min(1, Math.max(0, fraction)) * 100);

function videoTrack(asset: Pick<Asset, "videoSpec">) {
  return asset.videoSpec?.tracks.find((t) => t.type === "video");
}

/** 1920×1080, when the asset has been probed. */
export function resolution(asset: Pick<Asset, "videoSpec">): string | undefined {
  const video = videoTrack(asset);
  return video ? `${video.width}×${video.height}` : undefined;
}

/** The host of a URL, for short labels; the text itself when it is not a URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** How the video came to Castline, in a few words. */
export function sourceLabel(source: Asset["source"]): string {
  switch (source.type) {
    case "directUpload":
      return "Direct upload";
    case "url":
      return `Imported from ${hostOf(source.url)}`;
    case "recording":
      return "Recorded from a live stream";
    case "clip":
      return source.sessionId ? "Clipped from a live stream" : "Clipped from an asset";
    default:
      return "Unknown source";
  }
}

export interface IpfsFiles {
  video: { cid: string; gatewayUrl?: string };
  nftMetadata?: { cid: string; gatewayUrl?: string };
}

/**
 * Where an IPFS export put the asset: `storage.ipfs` when present, else the CIDs
 * in `status.storage` (which carry no gateway links).
 */
export function ipfsFiles(asset: Asset): IpfsFiles | undefined {
  const stored = asset.storage?.ipfs;
  if (stored?.cid) {
    return {
      video: { cid: stored.cid, gatewayUrl: stored.gatewayUrl },
      nftMetadata: stored.nftMetadata?.cid ? { cid: stored.nftMetadata.cid, gatewayUrl: stored.nftMetadata.gatewayUrl } : undefined,
    };
  }
  const data = asset.status.storage?.ipfs?.data;
  if (data?.videoFileCid) {
    return { video: { cid: data.videoFileCid }, nftMetadata: data.nftMetadataCid ? { cid: data.nftMetadataCid } : undefined };
  }
  return undefined;
}

/** "75", "75.5", "1:15" or "1:02:05" -> seconds; undefined when it is none of those. */
export function parseTimecode(text: string): number | undefined {
  const m = /^(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return undefined;
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2] ?? 0), Number(m[3])];
  // With minutes before them, seconds stay under 60 (1:75 is a typo, not 2:15).
  if ((m[2] !== undefined && s >= 60) || (m[1] !== undefined && min >= 60)) return undefined;
  return h * 3600 + min * 60 + s;
}
