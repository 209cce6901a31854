/**
 * The one rule for the size and frame rate of every rendition Castline encodes,
 * VOD or live: the source's aspect, inside the box asked (a side not given
 * follows from the other), never larger than the source nor above its frame
 * rate. Asking for more than the source gets the source's size and rate, so a
 * rendition never costs more to encode than its source's picture.
 */
export interface RenditionBox {
  width?: number;
  height?: number;
  fps?: number;
}

export interface SourceVideo {
  width: number;
  height: number;
  fps?: number;
}

/** Even (H.264 with 4:2:0 needs it), at least 2, never above `limit` (the source's side, made even downwards). */
const even = (n: number, limit: number) => Math.max(2, Math.min(Math.round(n / 2) * 2, Math.floor(limit / 2) * 2));

/** The rule, for a source known before encoding (VOD: probed). */
export function fitToSource(box: RenditionBox, source: SourceVideo): { width: number; height: number; fps?: number } {
  const boxW = Math.min(box.width ?? (box.height ? Infinity : source.width), source.width);
  const boxH = Math.min(box.height ?? (box.width ? Infinity : source.height), source.height);
  const scale = Math.min(boxW / source.width, boxH / source.height);
  const fps = box.fps && source.fps ? Math.min(box.fps, source.fps) : (box.fps ?? source.fps);
  return { width: even(source.width * scale, source.width), height: even(source.height * scale, source.height), fps };
}

/**
 * The rule as ffmpeg filters, for live: there the source is known only as ffmpeg
 * decodes it (a publisher's metadata is its own claim, and the picture may change
 * mid-broadcast), so the box is capped by the decoded picture (iw, ih) and the
 * frame rate by the input's (source_fps; ffmpeg 5.1 or newer).
 */
export function fitFilter(box: Required<RenditionBox>): string {
  return [
    `scale=w='min(${box.width},iw)':h='min(${box.height},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`,
    `fps='min(${box.fps},source_fps)'`,
  ].join(",");
}
