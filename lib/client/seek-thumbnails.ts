/**
 * Seek-bar previews from a WebVTT thumbnail track: each cue is a time range whose text
 * is an image URL, usually a sprite sheet with the tile as a media fragment
 * (`sprite_001.jpg#xywh=x,y,w,h`), resolved against the VTT's own URL.
 */

export interface SeekThumbnail {
  start: number;
  end: number;
  /** The image, absolute. */
  url: string;
  /** The tile within it; absent when the image is the whole thumbnail. */
  tile?: { x: number; y: number; w: number; h: number };
}

/** 01:02:03.456, 02:03.456 or 02:03 -> seconds; NaN when it is not a timestamp. */
function vttSeconds(text: string): number {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(text.trim());
  return m ? Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
}

/** The cues of a thumbnail track, in time order; cues that do not parse are skipped. */
export function parseThumbnailsVtt(text: string, vttUrl: string): SeekThumbnail[] {
  const thumbnails: SeekThumbnail[] = [];
  // Cues are blocks separated by blank lines; an optional identifier line precedes the timing.
  for (const block of text.replace(/\r\n?/g, "\n").split(/\n{2,}/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    const at = lines.findIndex((l) => l.includes("-->"));
    if (at < 0 || !lines[at + 1]) continue;
    const [from, to] = lines[at].split("-->");
    const start = vttSeconds(from);
    const end = vttSeconds(to.trim().split(/\s+/)[0]);
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    let url: URL;
    try {
      url = new URL(lines[at + 1].trim(), vttUrl);
    } catch {
      continue;
    }
    const xywh = /^#xywh=(?:pixel:)?(\d+),(\d+),(\d+),(\d+)$/.exec(url.hash);
    url.hash = "";
    thumbnails.push({
      start,
      end,
      url: url.href,
      tile: xywh ? { x: +xywh[1], y: +xywh[2], w: +xywh[3], h: +xywh[4] } : undefined,
    });
  }
  return thumbnails.sort((a, b) => a.start - b.start);
}

/** The thumbnail shown at a time: the cue containing it, else the last one starting before it. */
export function thumbnailAt(thumbnails: readonly SeekThumbnail[], time: number): SeekThumbnail | undefined {
  let lo = 0;
  let hi = thumbnails.length - 1;
  let found: SeekThumbnail | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (thumbnails[mid].start <= time) {
      found = thumbnails[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found ?? thumbnails[0];
}
