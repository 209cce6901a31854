/**
 * The containers Castline reads a user's media from (uploads, imports): the one place
 * that says which ffmpeg demuxers may open such a file, what each is called in the API
 * (`videoSpec.format`), and the content type its original is downloaded with.
 *
 * Only demuxers of self-contained files: not playlists (HLS, DASH), concat lists, image
 * sequences or anything else that names other files or URLs to open (lib/av/ffmpeg.ts
 * userMediaInput).
 */

export interface Container {
  /** The ffmpeg demuxer (the first name of ffprobe's format_name). */
  demuxer: string;
  /** Its name in `videoSpec.format`. */
  format: string;
  contentType: string;
  /** Browsers play the file itself (`html5/video/mp4` in playback info) when its codecs are H.264 and AAC. */
  playsInBrowsers?: boolean;
  /** Holds audio only: named in the refusal of a file with no video. */
  audioOnly?: boolean;
}

export const CONTAINERS: Container[] = [
  { demuxer: "mov", format: "mp4", contentType: "video/mp4", playsInBrowsers: true },
  { demuxer: "mov", format: "mov", contentType: "video/quicktime", playsInBrowsers: true },
  { demuxer: "mov", format: "3gp", contentType: "video/3gpp" },
  { demuxer: "matroska", format: "webm", contentType: "video/webm" },
  { demuxer: "matroska", format: "mkv", contentType: "video/x-matroska" },
  { demuxer: "avi", format: "avi", contentType: "video/x-msvideo" },
  // AVCHD cameras' .mts/.m2ts, broadcast captures.
  { demuxer: "mpegts", format: "mpegts", contentType: "video/mp2t" },
  { demuxer: "mpeg", format: "mpeg", contentType: "video/mpeg" },
  { demuxer: "flv", format: "flv", contentType: "video/x-flv" },
  { demuxer: "ogg", format: "ogg", contentType: "video/ogg" },
  { demuxer: "asf", format: "asf", contentType: "video/x-ms-asf" },
  { demuxer: "wav", format: "wav", contentType: "audio/wav", audioOnly: true },
  { demuxer: "mp3", format: "mp3", contentType: "audio/mpeg", audioOnly: true },
  { demuxer: "aac", format: "aac", contentType: "audio/aac", audioOnly: true },
  { demuxer: "flac", format: "flac", contentType: "audio/flac", audioOnly: true },
];

/** Every demuxer a user's file may be opened with, to find out what it is (ffprobe's -format_whitelist). */
export const READABLE_DEMUXERS = [...new Set(CONTAINERS.map((c) => c.demuxer))].join(",");

/** Names of video files in these containers, for a file picker: some systems give .mkv or .mts files no video/* type. */
export const VIDEO_FILE_EXTENSIONS = [
  ".mp4",
  ".m4v",
  ".mov",
  ".3gp",
  ".webm",
  ".mkv",
  ".avi",
  ".mts",
  ".m2ts",
  ".ts",
  ".mpg",
  ".mpeg",
  ".vob",
  ".flv",
  ".ogv",
  ".wmv",
  ".asf",
];

/** WebM's codecs: a Matroska file holding only these is reported as WebM. */
const WEBM_CODECS = new Set(["vp8", "vp9", "av1", "opus", "vorbis"]);
/** ISO brands of QuickTime and 3GPP files (ffprobe's major_brand); any other is an MP4. */
const QUICKTIME_BRAND = /^qt/;
const THREE_GPP_BRAND = /^3g/;

/**
 * The container of a probed file: ffprobe's format_name (the demuxer's names, e.g.
 * "mov,mp4,m4a,3gp,3g2,mj2"), the file's major brand and its streams' codecs.
 */
export function containerOf(formatName: string, majorBrand: string | undefined, codecs: string[]): Container | undefined {
  const demuxer = formatName.split(",")[0];
  const format =
    demuxer === "mov"
      ? QUICKTIME_BRAND.test(majorBrand ?? "")
        ? "mov"
        : THREE_GPP_BRAND.test(majorBrand ?? "")
          ? "3gp"
          : "mp4"
      : demuxer === "matroska"
        ? codecs.every((c) => WEBM_CODECS.has(c))
          ? "webm"
          : "mkv"
        : demuxer;
  return CONTAINERS.find((c) => c.demuxer === demuxer && c.format === format);
}

/** The container an asset's `videoSpec.format` names; assets from before other formats were read are MP4. */
export function containerNamed(format: string | undefined): Container {
  return CONTAINERS.find((c) => c.format === format) ?? CONTAINERS[0];
}
