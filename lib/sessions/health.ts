import { asc, eq, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { sessionHealthSamples } from "@/db/schema";
import { compact } from "@/lib/compact";
import { config } from "@/lib/config";
import { notFound } from "@/lib/errors";
import type { IngestHealth } from "@/lib/media-node-protocol";
import { diagnoseHealth, healthBucketMs } from "./health-readings";
import type { SessionHealth } from "./schema";
import { findSessionRow, type SessionRow } from "./service";

/**
 * Folds one heartbeat's reading into the session's current bucket: one upsert, so app
 * instances taking the same session's heartbeats (a reconnect, a load balancer) add up.
 * The mean bitrate, the lowest frame rate, the longest keyframe interval, the longest lag
 * of the live output and every rendition dropped are kept: averaging would hide the drop
 * or the late keyframe the creator needs to see.
 */
export async function recordHealth(session: Pick<SessionRow, "id" | "createdAt">, health: IngestHealth) {
  const at = health.updatedAt;
  const width = healthBucketMs(Math.max(0, at - session.createdAt));
  const t = sessionHealthSamples;
  await db()
    .insert(t)
    .values({
      sessionId: session.id,
      at: Math.floor(at / width) * width,
      beats: 1,
      bitrateKbps: health.bitrateKbps ?? null,
      fps: health.fps ?? null,
      keyframeIntervalS: health.keyframeIntervalS ?? null,
      lagS: health.lagS ?? null,
      droppedRenditions: health.droppedRenditions?.length ? health.droppedRenditions : null,
    })
    .onConflictDoUpdate({
      target: [t.sessionId, t.at],
      set: {
        beats: sql`${t.beats} + 1`,
        bitrateKbps: sql`case when excluded.bitrate_kbps is null then ${t.bitrateKbps} when ${t.bitrateKbps} is null then excluded.bitrate_kbps
          else ${t.bitrateKbps} + (excluded.bitrate_kbps - ${t.bitrateKbps}) / (${t.beats} + 1) end`,
        fps: sql`least(${t.fps}, excluded.fps)`,
        keyframeIntervalS: sql`greatest(${t.keyframeIntervalS}, excluded.keyframe_interval_s)`,
        lagS: sql`greatest(${t.lagS}, excluded.lag_s)`,
        droppedRenditions: sql`case when excluded.dropped_renditions is null then ${t.droppedRenditions}
          else array(select distinct unnest(coalesce(${t.droppedRenditions}, '{}') || excluded.dropped_renditions) order by 1) end`,
      },
    });
}

/** A session's ingest health over its broadcast (live or ended), with what the encoder should fix. */
export async function sessionHealth(userId: string, id: string): Promise<SessionHealth> {
  const session = await findSessionRow(userId, id);
  if (!session) throw notFound("session");
  const rows = await db().select().from(sessionHealthSamples).where(eq(sessionHealthSamples.sessionId, id)).orderBy(asc(sessionHealthSamples.at));
  // real columns: rounded so 2.0 s reads 2, not 2.0000000298
  const round = (n: number | null, places: number) => (n === null ? null : +n.toFixed(places));
  const samples = rows.map((r) =>
    compact({
      at: r.at,
      bitrateKbps: round(r.bitrateKbps, 0),
      fps: round(r.fps, 2),
      keyframeIntervalS: round(r.keyframeIntervalS, 3),
      lagS: round(r.lagS, 1),
      droppedRenditions: r.droppedRenditions?.length ? r.droppedRenditions : null,
    }),
  );
  return compact({
    sessionId: session.id,
    isActive: session.isActive,
    startedAt: session.createdAt,
    endedAt: session.endedAt,
    samples,
    issues: diagnoseHealth(samples, session.profiles, session.createdAt, config().HLS_SEGMENT_S),
  });
}
