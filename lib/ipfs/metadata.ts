import { ipfsUrl } from "./urls";

export interface NftAsset {
  name: string;
  playbackId: string;
  videoCid: string;
  /** A public download URL of the video, offered as the NFT's external_url. */
  downloadUrl?: string;
}

export type Metadata = Record<string, unknown>;

/** Keys that would reach a prototype instead of the object's own data. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const isPlainObject = (value: unknown): value is Metadata => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `extra` over `base`: objects merge key by key, arrays and scalars replace. Objects
 * from `extra` are copied through the same guard, so no unsafe key survives at any depth.
 */
function mergeMetadata(base: Metadata, extra: Metadata): Metadata {
  const merged: Metadata = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const current = merged[key];
    merged[key] = isPlainObject(value) ? mergeMetadata(isPlainObject(current) ? current : {}, value) : value;
  }
  return merged;
}

/** The NFT metadata (ERC-721/1155 style) exported with a video, with the user's additions merged in. */
export function nftMetadata(asset: NftAsset, extra: Metadata = {}): Metadata {
  const video = ipfsUrl(asset.videoCid);
  const defaults: Metadata = {
    name: asset.name,
    description: `Castline video ${asset.name}`,
    animation_url: video,
    ...(asset.downloadUrl && { external_url: asset.downloadUrl }),
    properties: { video, playbackId: asset.playbackId },
  };
  return mergeMetadata(defaults, extra);
}
