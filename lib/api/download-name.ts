import { create } from "content-disposition";

/** What an upload's own name may end with: the download gets the extension of what it serves. */
const CONTAINER_EXTENSION = /\.(mp4|m4v|mov|webm|mkv|avi|ts)$/i;
/** Control characters, quotes, path separators and what Windows refuses in a file name. */
const UNSAFE = /[\u0000-\u001f\u007f"\\/:*?<>|]+/g;
/** Long titles are cut: file systems refuse names over 255 bytes. */
const MAX_STEM = 120;

/** A file name made of a title: "Holiday: day 1.mov" with "720p" -> "Holiday day 1 720p.mp4". */
export function downloadName(title: string, extension: string, suffix?: string): string {
  const stem = title.replace(CONTAINER_EXTENSION, "").replace(UNSAFE, " ").replace(/\s+/g, " ").trim();
  const cut = [...stem].slice(0, MAX_STEM).join("").trim() || "video";
  return `${suffix ? `${cut} ${suffix}` : cut}.${extension}`;
}

/**
 * The Content-Disposition that names a file (RFC 6266): `inline`, so players and browsers still
 * play the URL, while a download or "Save as" takes the name. A name beyond ASCII goes as
 * RFC 5987's `filename*` (UTF-8), with an ASCII `filename` for old clients.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_");
  return create(filename, { type: "inline", fallback: ascii });
}
