import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";

/**
 * An asset by playback id, for every path that plays it: deleted ones included (their URLs keep
 * working, the spec says so), taken-down ones never.
 */
export async function assetForPlayback(playbackId: string) {
  if (!/^[\w-]{1,64}$/.test(playbackId)) return undefined;
  return db().query.assets.findFirst({ where: and(eq(assets.playbackId, playbackId), isNull(assets.purgedAt)) });
}
