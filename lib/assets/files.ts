import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";

/** An asset by playback id, deleted ones included: their URLs keep working (the spec says so). */
export async function assetForPlayback(playbackId: string) {
  if (!/^[\w-]{1,64}$/.test(playbackId)) return undefined;
  return db().query.assets.findFirst({ where: eq(assets.playbackId, playbackId) });
}
