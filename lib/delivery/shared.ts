import type http from "node:http";
import type { Reply } from "./reply";

/**
 * Answers every viewer of a URL gets alike (a public stream's or video's playlists and held
 * segments, admitted for anyone; a gated one's, admitted by the playback token in the URL alone,
 * while the token lasts; whole in memory), given again for SHARED_MS to whoever asks that URL
 * plainly, without its handler: no lookup, no admission, no promise per request. A thousand
 * viewers polling one live playlist cost its handler about twenty runs a second per instance
 * (gated: per token, and viewers who asked for the playback info in the same second share one).
 * Every announced change of viewer content drops them all (whatever admitted them may have
 * changed: a takedown 404s at once), and nothing is shared while changes are not followed.
 */

/**
 * How long an answer is given again. A live playlist is read from the store at most every 100 ms
 * (lib/delivery/content.ts): a new segment reaches viewers at most 150 ms after the store has it.
 */
const SHARED_MS = 50;
const MAX_ANSWERS = 10_000;

const answers = new Map<string, { reply: Reply; expires: number }>();
let sharing = false;
/** Bumped by every change: an answer begun before one may have read what it changed. */
let generation = 0;
let hits = 0;

/** A GET without range or validators: what every viewer of the URL gets alike, if its admission says so. */
export function plain(req: http.IncomingMessage): boolean {
  const h = req.headers;
  return req.method === "GET" && !h.range && !h["if-none-match"] && !h["if-modified-since"];
}

/** Where changes stand now: `share` keeps an answer begun here only if none came since. */
export const sharedGeneration = () => generation;

/** The answer given to the URL's plain requests for a moment, if there is one. */
export function sharedAnswer(url: string, now: number): Reply | undefined {
  const entry = answers.get(url);
  if (!entry) return undefined;
  if (entry.expires > now) {
    hits++;
    return entry.reply;
  }
  answers.delete(url);
  return undefined;
}

/** Keeps an answer a plain request of the URL got, begun at `since` (sharedGeneration), when it is the same for everyone asking it. */
export function share(url: string, reply: Reply, now: number, since: number) {
  if (!sharing || since !== generation || !reply.sharedUntil) return;
  answers.set(url, { reply, expires: Math.min(now + SHARED_MS, reply.sharedUntil) });
  for (const key of answers.keys()) {
    if (answers.size <= MAX_ANSWERS) break;
    answers.delete(key);
  }
}

/** Changes are followed (`true`) or no longer (`false`); either way, or on any change, what was shared goes. */
export function forgetShared(following = sharing) {
  sharing = following;
  generation++;
  answers.clear();
}

/** How often a shared answer was given, for /metrics. */
export const sharedFigures = () => ({ hits, size: answers.size });
