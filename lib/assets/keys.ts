/** Object-store keys of an asset's media (lib/storage). */
export const sourceKey = (assetId: string) => `assets/${assetId}/source`;
/** The original's H.264/AAC transcode, when browsers cannot play the original as it is. */
export const transcodedSourceKey = (assetId: string) => `assets/${assetId}/source-h264.mp4`;
export const hlsPrefix = (assetId: string) => `assets/${assetId}/hls`;
export const thumbnailKey = (assetId: string) => `assets/${assetId}/thumbnail.jpg`;
export const metadataKey = (assetId: string) => `assets/${assetId}/metadata.json`;
/** The remux of the source (no re-encode), playable first; its segments are beside it. */
export const hlsSourceKey = (assetId: string) => `${hlsPrefix(assetId)}/source.m3u8`;
/** A rendition's playlist and segments. */
export const renditionKey = (assetId: string, rendition: string, file: string) => `${hlsPrefix(assetId)}/${rendition}/${file}`;
export const mp4Key = (assetId: string, rendition: string) => `assets/${assetId}/mp4/${rendition}.mp4`;
export const thumbnailsPrefix = (assetId: string) => `assets/${assetId}/thumbnails`;
/** A caption track, as WebVTT. */
export const captionKey = (assetId: string, trackId: string) => `assets/${assetId}/captions/${trackId}.vtt`;
