import fs from "node:fs/promises";

/** The segments of a media playlist: URI, duration and, when the playlist says, wall-clock start (Unix ms), in order. */
export interface Segment {
  uri: string;
  duration: number;
  programDateTime?: number;
}

export function parseMediaPlaylist(text: string): Segment[] {
  const segments: Segment[] = [];
  let duration: number | undefined;
  let programDateTime: number | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("#EXTINF:")) duration = parseFloat(line.slice(8));
    else if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) programDateTime = parseProgramDateTime(line.slice(25));
    else if (line && !line.startsWith("#") && duration !== undefined) {
      segments.push({ uri: line, duration, ...(programDateTime !== undefined ? { programDateTime } : {}) });
      duration = undefined;
      programDateTime = undefined;
    }
  }
  return segments;
}

/** ffmpeg writes "2024-05-01T12:00:00.123+0000": the offset without a colon, which Date.parse does not read everywhere. */
function parseProgramDateTime(text: string): number | undefined {
  const ms = Date.parse(text.trim().replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isFinite(ms) ? ms : undefined;
}

export async function readMediaPlaylist(path: string): Promise<Segment[]> {
  try {
    return parseMediaPlaylist(await fs.readFile(path, "utf8"));
  } catch {
    return [];
  }
}

export interface Variant {
  uri: string;
  name: string;
  bandwidth: number;
  averageBandwidth?: number;
  width: number;
  height: number;
  frameRate?: number;
  /** Empty when unknown (a source remux of any codec): players then find out from the segments. */
  codecs: string[];
}

/** A WebVTT rendition (captions), in the master's one subtitles group. */
export interface Subtitles {
  uri: string;
  name: string;
  /** BCP 47. */
  language: string;
}

const SUBTITLES_GROUP = "subs";
const quoted = (value: string) => `"${value.replace(/["\r\n]/g, "'")}"`;

export function masterPlaylist(variants: Variant[], subtitles: Subtitles[] = []): string {
  const lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const s of subtitles) {
    // Off until the viewer picks one; AUTOSELECT lets players pick by the device's language.
    const attrs = [
      `TYPE=SUBTITLES`,
      `GROUP-ID="${SUBTITLES_GROUP}"`,
      `NAME=${quoted(s.name)}`,
      `LANGUAGE=${quoted(s.language)}`,
      "DEFAULT=NO",
      "AUTOSELECT=YES",
      `URI=${quoted(s.uri)}`,
    ];
    lines.push(`#EXT-X-MEDIA:${attrs.join(",")}`);
  }
  for (const v of variants) {
    const attrs = [
      `BANDWIDTH=${Math.round(v.bandwidth)}`,
      ...(v.averageBandwidth ? [`AVERAGE-BANDWIDTH=${Math.round(v.averageBandwidth)}`] : []),
      `RESOLUTION=${v.width}x${v.height}`,
      ...(v.frameRate ? [`FRAME-RATE=${v.frameRate.toFixed(3)}`] : []),
      ...(v.codecs.length ? [`CODECS="${v.codecs.join(",")}"`] : []),
      `NAME="${v.name.replaceAll('"', "'")}"`,
      ...(subtitles.length ? [`SUBTITLES="${SUBTITLES_GROUP}"`] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(",")}`, v.uri);
  }
  return lines.join("\n") + "\n";
}

/** A segment as a media playlist lists it. */
export interface PlaylistSegment extends Segment {
  /** Another encoder's output begins here (a session's next epoch): players reset their decoder. */
  discontinuity?: boolean;
}

/**
 * The one media-playlist writer (VOD renditions, recordings, whole-file captions): every
 * segment from the first (sequence 0), durations with `durationDigits` decimals. A VOD playlist
 * is closed (EXT-X-ENDLIST); an EVENT playlist still grows (a recording while its session is live).
 */
export function mediaPlaylist(segments: PlaylistSegment[], opts: { type: "VOD" | "EVENT"; durationDigits: number }): string {
  const target = Math.ceil(Math.max(...segments.map((s) => s.duration)));
  const lines = ["#EXTM3U", "#EXT-X-VERSION:3", `#EXT-X-TARGETDURATION:${target}`, "#EXT-X-MEDIA-SEQUENCE:0", `#EXT-X-PLAYLIST-TYPE:${opts.type}`];
  for (const s of segments) {
    if (s.discontinuity) lines.push("#EXT-X-DISCONTINUITY");
    // The wall clock players show, and clips of a recording are asked in.
    if (s.programDateTime !== undefined) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.programDateTime).toISOString()}`);
    lines.push(`#EXTINF:${s.duration.toFixed(opts.durationDigits)},`, s.uri);
  }
  if (opts.type === "VOD") lines.push("#EXT-X-ENDLIST");
  return lines.join("\n") + "\n";
}

/** A VOD media playlist of one segment: a whole WebVTT file, as long as the video. */
export function wholeFilePlaylist(uri: string, duration: number): string {
  return mediaPlaylist([{ uri, duration: Math.max(duration, 0.001) }], { type: "VOD", durationDigits: 3 });
}

/** RFC 6381 codec strings from what ffprobe reports of a segment. */
export function codecString(stream: { codec_name?: string; profile?: string; level?: number }): string | undefined {
  if (stream.codec_name === "h264") {
    const profiles: Record<string, string> = { Baseline: "4200", "Constrained Baseline": "42e0", Main: "4d00", High: "6400", "High 10": "6e00" };
    const level = (stream.level ?? 31).toString(16).padStart(2, "0");
    return `avc1.${profiles[stream.profile ?? "High"] ?? "6400"}${level}`;
  }
  if (stream.codec_name === "aac") return stream.profile === "HE-AAC" ? "mp4a.40.5" : "mp4a.40.2";
  return undefined;
}
