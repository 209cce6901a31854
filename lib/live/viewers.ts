import { and, gt, inArray, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { liveViewers } from "@/db/schema";

/** A count not reported again within this long is an instance gone (or idle for that stream): left out. */
export const VIEWERS_FRESH_MS = 15_000;

/**
 * What an instance sees now, per stream (a count of 0: the stream's viewers left it). One
 * statement for every stream; the rows of instances that stopped reporting a while ago go too.
 */
export async function reportViewers(instance: string, counts: Map<string, number>, now = Date.now()) {
  if (counts.size) {
    const rows = [...counts].map(([streamId, viewers]) => ({ streamId, instance, viewers, reportedAt: now }));
    await db()
      .insert(liveViewers)
      .values(rows)
      .onConflictDoUpdate({ target: [liveViewers.streamId, liveViewers.instance], set: { viewers: sql`excluded.viewers`, reportedAt: now } })
      // A stream deleted meanwhile has no row to count for.
      .catch((err: { code?: string }) => {
        if (err.code !== "23503") throw err;
      });
  }
  await db()
    .delete(liveViewers)
    .where(lt(liveViewers.reportedAt, now - 4 * VIEWERS_FRESH_MS));
}

/** How many viewers pull a live stream now, summed over the instances that reported lately. */
export async function viewersOf(streamId: string, now = Date.now()): Promise<number> {
  return (await viewersOfEach([streamId], now)).get(streamId) ?? 0;
}

/** The same for several streams in one statement (a page of the streams list): a stream nobody pulls counts 0. */
export async function viewersOfEach(streamIds: string[], now = Date.now()): Promise<Map<string, number>> {
  const counts = new Map(streamIds.map((id) => [id, 0]));
  if (!streamIds.length) return counts;
  const rows = await db()
    .select({ streamId: liveViewers.streamId, viewers: sql<number>`coalesce(sum(${liveViewers.viewers}), 0)::int` })
    .from(liveViewers)
    .where(and(inArray(liveViewers.streamId, streamIds), gt(liveViewers.reportedAt, now - VIEWERS_FRESH_MS)))
    .groupBy(liveViewers.streamId);
  for (const row of rows) counts.set(row.streamId, row.viewers);
  return counts;
}
