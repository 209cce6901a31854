import { unprocessable } from "@/lib/errors";

/** Caption files are text; anything larger is not one (an hour of dense captions is ~100 kB). */
export const MAX_CAPTION_BYTES = 5 * 1024 * 1024;

export type CaptionFormat = "vtt" | "srt";

/**
 * Our TS segments start at PTS 1.4 s (ffmpeg's mpegts muxer puts source time 0 there), so
 * a cue's time 0 is MPEGTS 126000: players (hls.js, Safari) align cues to video with this.
 * Browsers reading the file as a <track> ignore the header line.
 */
const TIMESTAMP_MAP = "X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000";

/** A caption file checked and made WebVTT: what the store keeps and players fetch. */
export interface Captions {
  format: CaptionFormat;
  vtt: string;
  cues: number;
}

interface Cue {
  start: number;
  end: number;
  line: number;
}

const VTT_TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const SRT_TIME = /^(\d{1,3}):([0-5]\d):([0-5]\d)[,.](\d{3})$/;

const seconds = (m: RegExpExecArray) => Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;

const clock = (s: number) => {
  const ms = Math.round(s * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/** "<start> --> <end>[ settings]" with the given time syntax; the reason when it is not. */
function timing(text: string, syntax: RegExp, example: string): { start: number; end: number; rest: string } | string {
  const m = /^(\S+)[ \t]+-->[ \t]+(\S+)(.*)$/.exec(text);
  if (!m) return `expected a cue timing like "${example}"`;
  const start = syntax.exec(m[1]);
  const end = syntax.exec(m[2]);
  if (!start) return `"${m[1]}" is not a time like "${example.split(" ")[0]}"`;
  if (!end) return `"${m[2]}" is not a time like "${example.split(" ")[0]}"`;
  return { start: seconds(start), end: seconds(end), rest: m[3] };
}

/**
 * Checks a caption file (WebVTT or SubRip, told apart by content) and returns it as
 * WebVTT. Refuses, naming the line, anything a player would stumble on: not text,
 * no cues, a broken timing, a cue ending before it starts or starting after the video
 * (`duration` seconds) ends.
 */
export function parseCaptions(bytes: Uint8Array, duration: number | undefined): Captions {
  if (bytes.length === 0) throw unprocessable("the caption file is empty");
  if (bytes.length > MAX_CAPTION_BYTES) throw unprocessable(`the caption file is over ${MAX_CAPTION_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw unprocessable("the caption file is not UTF-8 text");
  }
  const binary = /[\x00-\x08\x0e-\x1f\x7f]/.exec(text);
  if (binary)
    throw unprocessable(
      `line ${lineAt(text, binary.index)}: the caption file is not text (control character 0x${binary[0].charCodeAt(0).toString(16).padStart(2, "0")})`,
    );
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const captions = /^WEBVTT([ \t].*)?$/.test(lines[0]) ? webVtt(lines) : subRip(lines);
  if (!captions.cues.length) throw unprocessable("the caption file has no cues");
  for (const cue of captions.cues) {
    if (cue.end < cue.start) throw unprocessable(`line ${cue.line}: the cue ends (${clock(cue.end)}) before it starts (${clock(cue.start)})`);
    if (duration !== undefined && cue.start > duration + 1) {
      throw unprocessable(`line ${cue.line}: the cue starts at ${clock(cue.start)}, after the video ends (${clock(duration)})`);
    }
  }
  return { format: captions.format, vtt: captions.vtt, cues: captions.cues.length };
}

const lineAt = (text: string, index: number) => text.slice(0, index).split(/\r\n?|\n/).length;

/** Blocks of non-blank lines, each with the 1-based number of its first line. */
function blocks(lines: string[], from: number): { line: number; lines: string[] }[] {
  const out: { line: number; lines: string[] }[] = [];
  let current: { line: number; lines: string[] } | undefined;
  for (let i = from; i < lines.length; i++) {
    if (lines[i].trim() === "") current = undefined;
    else if (current) current.lines.push(lines[i]);
    else out.push((current = { line: i + 1, lines: [lines[i]] }));
  }
  return out;
}

function webVtt(lines: string[]) {
  // The header runs to the first blank line; a map of the uploader's own would misplace cues on our segments.
  let body = lines.findIndex((l) => l.trim() === "");
  if (body === -1) body = lines.length;
  const header = [lines[0], ...lines.slice(1, body).filter((l) => !l.startsWith("X-TIMESTAMP-MAP="))];
  const early = lines.slice(0, body).findIndex((l) => l.includes("-->"));
  if (early !== -1) throw unprocessable(`line ${early + 1}: a blank line must separate the WEBVTT header from the first cue`);
  const cues: Cue[] = [];
  for (const block of blocks(lines, body)) {
    if (/^(NOTE|STYLE|REGION)([ \t]|$)/.test(block.lines[0])) continue;
    const at = block.lines[0].includes("-->") ? 0 : 1;
    const line = block.line + at;
    // Neither line has an arrow: the block's first line is most likely a broken timing.
    if (at === 1 && !block.lines[1]?.includes("-->")) throw unprocessable(`line ${block.line}: expected a cue timing like "00:00:01.000 --> 00:00:02.000"`);
    const t = timing(block.lines[at], VTT_TIME, "00:00:01.000 --> 00:00:02.000");
    if (typeof t === "string") throw unprocessable(`line ${line}: ${t}`);
    const arrow = block.lines.slice(at + 1).findIndex((l) => l.includes("-->"));
    if (arrow !== -1) throw unprocessable(`line ${line + 1 + arrow}: a cue's text must not contain "-->" (is a blank line missing between cues?)`);
    cues.push({ start: t.start, end: t.end, line });
  }
  const vtt = [...header, TIMESTAMP_MAP, ...lines.slice(body)].join("\n").trimEnd() + "\n";
  return { format: "vtt" as const, vtt, cues };
}

function subRip(lines: string[]) {
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first === -1) throw unprocessable("the caption file has no cues");
  if (!/^\d+$/.test(lines[first].trim()) && !lines[first].includes("-->")) {
    throw unprocessable(`line ${first + 1}: neither WebVTT (line 1 must be "WEBVTT") nor SubRip (a cue number, then "00:00:01,000 --> 00:00:02,000")`);
  }
  const cues: Cue[] = [];
  const out = ["WEBVTT", TIMESTAMP_MAP, ""];
  for (const block of blocks(lines, first)) {
    if (!/^\d+$/.test(block.lines[0].trim())) throw unprocessable(`line ${block.line}: expected a cue number`);
    const line = block.line + 1;
    if (block.lines.length < 2) throw unprocessable(`line ${line}: expected a cue timing like "00:00:01,000 --> 00:00:02,000"`);
    // SubRip's optional "X1:.. X2:.. Y1:.. Y2:.." box has no WebVTT equivalent: dropped.
    const t = timing(block.lines[1].trim(), SRT_TIME, "00:00:01,000 --> 00:00:02,000");
    if (typeof t === "string") throw unprocessable(`line ${line}: ${t}`);
    cues.push({ start: t.start, end: t.end, line });
    out.push(block.lines[0].trim(), `${clock(t.start)} --> ${clock(t.end)}`, ...block.lines.slice(2).map(srtText), "");
  }
  return { format: "srt" as const, vtt: out.join("\n"), cues };
}

/** SubRip's text as WebVTT cue text: <i>, <b>, <u> carry over; <font> and {\an8}-style overrides do not. */
const srtText = (line: string) =>
  line
    .replace(/<\/?font[^>]*>|\{\\[^}]*\}/gi, "")
    .replace(/&(?![a-z]+;|#\d+;|#x[0-9a-f]+;)/gi, "&amp;")
    .replace(/<(?!\/?[ibu]>)/gi, "&lt;")
    .replace(/-->/g, "--&gt;");
