import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";
import { notFoundResponse, type ServeOptions } from "@/lib/api/files";
import { objectResponse } from "@/lib/storage/response";
import type { AssetFilesRow } from "@/db/schema";

/** An asset by playback id, deleted ones included: their URLs keep working (the spec says so). */
export async function assetForPlayback(playbackId: string) {
  if (!/^[\w-]{1,64}$/.test(playbackId)) return undefined;
  return db().query.assets.findFirst({ where: eq(assets.playbackId, playbackId) });
}

export const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * A public file of an asset (no auth: the playback id is the capability, CORS
 * open), from whichever store holds it.
 */
export async function assetFileResponse(
  req: Request,
  playbackId: string,
  pick: (files: AssetFilesRow, asset: { name: string }) => string | undefined,
  opts: ServeOptions,
) {
  const asset = await assetForPlayback(playbackId);
  const key = asset?.files ? pick(asset.files, asset) : undefined;
  if (!key) return notFoundResponse();
  return objectResponse(key, req, opts);
}
