/** Object-store keys of an asset's media (lib/storage). */
export const sourceKey = (assetId: string) => `assets/${assetId}/source`;
export const hlsPrefix = (assetId: string) => `assets/${assetId}/hls`;
export const thumbnailKey = (assetId: string) => `assets/${assetId}/thumbnail.jpg`;
export const metadataKey = (assetId: string) => `assets/${assetId}/metadata.json`;
