import path from "node:path";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";
import { mediaDir } from "@/lib/live/playback";

/** An asset by playback id, deleted ones included: their URLs keep working (the spec says so). */
export async function assetForPlayback(playbackId: string) {
  return db().query.assets.findFirst({ where: eq(assets.playbackId, playbackId) });
}

/** The local file behind an asset's public path (/recordings/<session>/<file>). */
export function localFile(publicPath: string): string | undefined {
  const match = /^\/recordings\/([\w-]+)\/([\w.-]+)$/.exec(publicPath);
  return match ? path.join(mediaDir(), "recordings", match[1], match[2]) : undefined;
}
