import { randomUUID } from "node:crypto";
import { db } from "@/db/client";
import { assetForPlayback } from "@/lib/assets/files";
import { assetMasterPlaylist } from "@/lib/assets/master";
import { renditionsOf } from "@/lib/assets/service";
import { textTracksOf } from "@/lib/assets/text-tracks";
import { liveSessionOf, readText, recordingMp4, recordingOf, recordingPlaylist, streamForPlayback, streamOfSession } from "@/lib/live/playback";
import { ShortLived, TaggedCache, type Loaded } from "./cache";
import { setChangesSeenBarrier } from "./own-writes";
import { forgetShared } from "./shared";

/**
 * What viewers are served, read from PostgreSQL once per change rather than once per request: a
 * playback id's content (owner, policy, live session, renditions, caption tracks), a recording's.
 * Every app instance holds its own copy and LISTENs for the changes announced by the database's
 * triggers (db/migrations/0022_viewer_changes.sql), whichever process made them; the TTL bounds
 * what a missed announcement could leave stale (the listening connection lost and found again
 * clears everything, as announcements may have been missed meanwhile).
 */
const CHANNEL = "castline_viewer";
/** The safety net only: announcements arrive within milliseconds of a commit. */
const CONTENT_TTL_MS = 5000;
/**
 * A live media playlist is read from the store at most this often per instance, however many
 * viewers poll it: a new segment reaches viewers at most this much later than the store has it.
 */
const LIVE_PLAYLIST_TTL_MS = 100;

const content = new TaggedCache({ ttlMs: CONTENT_TTL_MS, maxEntries: 50_000 });
const livePlaylists = new ShortLived<string | undefined>({ ttlMs: LIVE_PLAYLIST_TTL_MS, maxEntries: 10_000 });
let listening = false;

/**
 * Starts following the announced changes. Until the first LISTEN succeeds nothing is cached:
 * every read goes to the database, as before there was a cache.
 */
export async function followViewerChanges(): Promise<() => Promise<void>> {
  const { unlisten } = await db().$client.listen(
    CHANNEL,
    (payload) => {
      if (payload.startsWith(MARK)) return marks.get(payload)?.();
      content.invalidate(payload.split(" "));
      forgetShared();
    },
    () => {
      // (Re)connected: what changed while the connection was down was not announced to it.
      content.clear();
      forgetShared(true);
      listening = true;
    },
  );
  setChangesSeenBarrier(changesSeen);
  return async () => {
    setChangesSeenBarrier(undefined);
    listening = false;
    content.clear();
    forgetShared(false);
    await unlisten();
  };
}

/**
 * PostgreSQL delivers announcements in the order their transactions committed: once a mark
 * announced now comes back, every change committed before it has been applied. Other instances
 * ignore the mark. A write's answer waits for it at most MARK_WAIT_MS (a slow listener must not
 * hold writes; the TTL still bounds what it could leave stale).
 */
const MARK = "seen:";
const MARK_WAIT_MS = 1000;
const marks = new Map<string, () => void>();

async function changesSeen(): Promise<void> {
  if (!listening) return;
  const mark = `${MARK}${randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  const back = new Promise<void>((resolve) => {
    marks.set(mark, resolve);
    timer = setTimeout(resolve, MARK_WAIT_MS);
  });
  try {
    await db().$client`select pg_notify(${CHANNEL}, ${mark})`;
    await back;
  } finally {
    clearTimeout(timer);
    marks.delete(mark);
  }
}

function cached<T>(key: string, load: () => Promise<Loaded<T>>): Promise<T> {
  return listening ? content.get(key, load) : load().then((l) => l.value);
}

export const streamByPlayback = (playbackId: string) =>
  cached(`stream:${playbackId}`, async () => {
    const row = await streamForPlayback(playbackId);
    return { value: row && { id: row.id, playbackId: row.playbackId, userId: row.userId, playbackPolicy: row.playbackPolicy }, tags: [`p:${playbackId}`] };
  });

export const liveSession = (streamId: string) => cached(`live:${streamId}`, async () => ({ value: await liveSessionOf(streamId), tags: [`s:${streamId}`] }));

export const streamOfLiveSession = (playbackId: string, sessionId: string) =>
  cached(`session:${playbackId}:${sessionId}`, async () => {
    const row = await streamOfSession(playbackId, sessionId);
    return { value: row && { ...row }, tags: [`p:${playbackId}`, `x:${sessionId}`] };
  });

export const assetByPlayback = (playbackId: string) =>
  cached(`asset:${playbackId}`, async () => {
    const row = await assetForPlayback(playbackId);
    return { value: row, tags: [`p:${playbackId}`, ...(row ? [`a:${row.id}`] : [])] };
  });

export const renditions = (assetId: string) => cached(`renditions:${assetId}`, async () => ({ value: await renditionsOf(assetId), tags: [`a:${assetId}`] }));

export const textTracks = (assetId: string) => cached(`tracks:${assetId}`, async () => ({ value: await textTracksOf(assetId), tags: [`a:${assetId}`] }));

/** An asset's master playlist (lib/assets/master.ts), made once per change of its renditions or captions. */
export const assetMaster = (asset: { id: string; playbackId: string }) =>
  cached(`master:${asset.id}`, async () => {
    const [current, ladder, tracks] = await Promise.all([assetByPlayback(asset.playbackId), renditions(asset.id), textTracks(asset.id)]);
    return { value: current && assetMasterPlaylist(current, ladder, tracks), tags: [`a:${asset.id}`, `p:${asset.playbackId}`] };
  });

/** A playlist an asset's jobs stored: never rewritten once there, so read once (until the asset changes). */
export const storedPlaylist = (assetId: string, key: string) => cached(`stored:${key}`, async () => ({ value: await readText(key), tags: [`a:${assetId}`] }));

export const recording = (sessionId: string) =>
  cached(`recording:${sessionId}`, async () => {
    const value = await recordingOf(sessionId);
    const playbackIds = value ? [value.playbackId, ...(value.otherPlaybackIds ?? [])] : [];
    return { value, tags: [`x:${sessionId}`, ...playbackIds.map((p) => `p:${p}`)] };
  });

export const recordingIndex = (sessionId: string) =>
  cached(`recording-index:${sessionId}`, async () => ({ value: await recordingPlaylist(sessionId), tags: [`x:${sessionId}`] }));

export const recordingFile = (sessionId: string) =>
  cached(`recording-mp4:${sessionId}`, async () => ({ value: await recordingMp4(sessionId), tags: [`x:${sessionId}`] }));

/** A live playlist (master or media) of the store, as of at most LIVE_PLAYLIST_TTL_MS ago. */
export const livePlaylist = (key: string) => livePlaylists.get(key, () => readText(key));

/** How well the caches do, for /metrics. */
export const cacheFigures = () => ({
  content: { hits: content.hits, misses: content.misses, size: content.size },
  livePlaylists: { hits: livePlaylists.hits, misses: livePlaylists.misses },
});
