import { Readable } from "node:stream";
import { and, asc, count, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { assetTextTracks } from "@/db/schema";
import { invalid, notFound, unprocessable } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { fetchSmallFile, FetchFailed } from "@/lib/net/download";
import { privateHostReason } from "@/lib/net/guard";
import { publicOrigin } from "@/lib/origin";
import { objects } from "@/lib/storage";
import { MAX_CAPTION_BYTES, parseCaptions } from "./captions";
import { captionKey } from "./keys";
import type { TextTrack } from "./schema";
import { ownAsset, type AssetRow } from "./service";

export type TextTrackRow = typeof assetTextTracks.$inferSelect;

/** More would only crowd players' menus; a film rarely has more than a few dozen languages. */
const MAX_TRACKS = 50;
const FETCH_TIMEOUT_MS = 15_000;

/** Where players fetch a track: beside the asset's HLS, public like it. */
export const captionsUrl = (playbackId: string, trackId: string) => `${publicOrigin()}/asset/${playbackId}/hls/captions/${trackId}.vtt`;

export function serializeTextTrack(row: TextTrackRow, playbackId: string): TextTrack {
  return {
    id: row.id,
    assetId: row.assetId,
    language: row.language,
    name: row.name,
    format: row.format as TextTrack["format"],
    createdAt: row.createdAt,
    url: captionsUrl(playbackId, row.id),
  };
}

/** An asset's caption tracks, oldest first (the master playlist lists them in this order). */
export async function textTracksOf(assetId: string): Promise<TextTrackRow[]> {
  return db().select().from(assetTextTracks).where(eq(assetTextTracks.assetId, assetId)).orderBy(asc(assetTextTracks.createdAt), asc(assetTextTracks.id));
}

export async function listTextTracks(userId: string, assetId: string): Promise<TextTrack[]> {
  const asset = await ownAsset(userId, assetId);
  return (await textTracksOf(asset.id)).map((r) => serializeTextTrack(r, asset.playbackId));
}

/** "en" -> "English", "pt-BR" -> "Brazilian Portuguese"; the tag itself when unknown. */
export function languageName(language: string): string {
  try {
    const name = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" }).of(language);
    return name ?? language;
  } catch {
    return language;
  }
}

export interface NewTextTrack {
  language: string;
  name?: string;
  /** The file itself (an upload) or where to fetch it. */
  file: { bytes: Uint8Array } | { url: string };
}

/**
 * Adds captions to a ready asset: the file is fetched (a URL) or taken as sent, checked
 * and made WebVTT (lib/assets/captions.ts), stored, and then listed. A file that fails
 * the check leaves nothing behind.
 */
export async function addTextTrack(userId: string, assetId: string, track: NewTextTrack): Promise<TextTrack> {
  const asset = await ownAsset(userId, assetId);
  await checkRoom(asset);
  const bytes = "bytes" in track.file ? track.file.bytes : await fetchCaptions(track.file.url);
  const captions = parseCaptions(bytes, asset.videoSpec?.duration);
  const id = newId();
  // The file first: a listed track always has its file.
  await objects().write(captionKey(asset.id, id), Readable.from([Buffer.from(captions.vtt)]), { contentType: "text/vtt" });
  const [row] = await db()
    .insert(assetTextTracks)
    .values({
      id,
      assetId: asset.id,
      language: track.language,
      name: track.name ?? languageName(track.language),
      format: captions.format,
      createdAt: Date.now(),
    })
    .returning();
  return serializeTextTrack(row, asset.playbackId);
}

async function checkRoom(asset: AssetRow) {
  if (asset.phase !== "ready") throw invalid(`captions can be added once the asset is ready (phase: ${asset.phase})`);
  const [{ n }] = await db().select({ n: count() }).from(assetTextTracks).where(eq(assetTextTracks.assetId, asset.id));
  if (n >= MAX_TRACKS) throw invalid(`the asset already has ${MAX_TRACKS} caption tracks, the most it may have`);
}

async function fetchCaptions(url: string): Promise<Uint8Array> {
  const refused = await privateHostReason(url);
  if (refused) throw invalid(`url: ${refused}, which captions cannot be fetched from`);
  try {
    return await fetchSmallFile(url, { limit: MAX_CAPTION_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof FetchFailed) throw unprocessable(`url: ${err.message}`);
    throw err;
  }
}

export async function deleteTextTrack(userId: string, assetId: string, trackId: string): Promise<void> {
  const asset = await ownAsset(userId, assetId);
  const [deleted] = await db()
    .delete(assetTextTracks)
    .where(and(eq(assetTextTracks.assetId, asset.id), eq(assetTextTracks.id, trackId)))
    .returning();
  if (!deleted) throw notFound("text track");
  await objects().removePrefix(captionKey(asset.id, trackId));
}
