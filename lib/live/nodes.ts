import { and, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { mediaNodes, sessions, streams } from "@/db/schema";
import { config } from "@/lib/config";
import type { LiveWork } from "@/lib/av/machine";
import type { NodeBeat, NodeBeatReply } from "@/lib/media-node-protocol";
import type { MediaNode } from "./media-node";
import { sessionEnded } from "./ingest";

/**
 * The media node registry, in PostgreSQL: nodes register and heartbeat over the
 * internal API; any app instance may declare one lost, and ends the sessions
 * nobody heard of for NODE_LOST_AFTER_S. Ending is a conditional update, so when
 * several instances sweep at once each session still ends (and is announced) once.
 */
export type MediaNodeRow = typeof mediaNodes.$inferSelect;

/** Past this one-minute load per core every runnable thread waits about as long again as it runs: no room for a broadcast. */
export const OVERLOADED_CPU_LOAD = 2;

/** A node that cannot take more broadcasts without them falling behind: one of its broadcasts already has, or its CPU is overloaded. */
export const isOverloaded = (node: { cpuLoad: number; laggingSessions: number }) => node.laggingSessions > 0 || node.cpuLoad >= OVERLOADED_CPU_LOAD;

export async function nodeBeat(beat: NodeBeat): Promise<NodeBeatReply> {
  if (beat.leaving) {
    await db().delete(mediaNodes).where(eq(mediaNodes.id, beat.nodeId));
    return { lost: false };
  }
  const now = Date.now();
  const laggingSessions = beat.laggingSessions ?? 0;
  const values = {
    ingestUrl: beat.ingestUrl ?? null,
    rtmpPort: beat.rtmpPort,
    webrtcUrl: beat.webrtcUrl ?? null,
    cores: beat.cores,
    cpuLoad: beat.cpuLoad,
    liveSessions: beat.liveSessions,
    laggingSessions,
    overloaded: isOverloaded({ cpuLoad: beat.cpuLoad, laggingSessions }),
    machine: beat.machine ?? null,
    startedAt: beat.startedAt,
  };
  // The previous lost_at comes back from the row as it was before this update.
  const [row] = await db().execute<{ was_lost: boolean }>(sql`
    WITH before AS (SELECT lost_at FROM media_nodes WHERE id = ${beat.nodeId})
    INSERT INTO media_nodes (id, ingest_url, rtmp_port, webrtc_url, cores, cpu_load, live_sessions, lagging_sessions, overloaded, machine, started_at, last_heartbeat_at, lost_at)
    VALUES (${beat.nodeId}, ${values.ingestUrl}, ${values.rtmpPort}, ${values.webrtcUrl}, ${values.cores}, ${values.cpuLoad}, ${values.liveSessions},
      ${values.laggingSessions}, ${values.overloaded}, ${values.machine}, ${values.startedAt}, ${now}, NULL)
    ON CONFLICT (id) DO UPDATE SET ingest_url = excluded.ingest_url, rtmp_port = excluded.rtmp_port, webrtc_url = excluded.webrtc_url, cores = excluded.cores,
      cpu_load = excluded.cpu_load, live_sessions = excluded.live_sessions, lagging_sessions = excluded.lagging_sessions,
      overloaded = excluded.overloaded, machine = excluded.machine, started_at = excluded.started_at,
      last_heartbeat_at = excluded.last_heartbeat_at, lost_at = NULL
    RETURNING (SELECT lost_at IS NOT NULL FROM before) AS was_lost`);
  return { lost: Boolean(row?.was_lost) };
}

const lostAfterMs = () => config().NODE_LOST_AFTER_S * 1000;
const FORGET_LOST_AFTER_MS = 24 * 3600_000;

/** A node is up while it heartbeats and nobody declared it lost; up, it is healthy or overloaded (as its last beat said). */
export function nodeState(node: Pick<MediaNodeRow, "lostAt" | "lastHeartbeatAt" | "overloaded">, now: number, lostAfterMs: number): MediaNode["state"] {
  if (node.lostAt !== null || node.lastHeartbeatAt < now - lostAfterMs) return "lost";
  return node.overloaded ? "overloaded" : "healthy";
}

/**
 * Where the next broadcast should go: healthy nodes, least CPU load first (the machine's: its
 * background work counts too), then fewest sessions per core. Overloaded nodes only when no
 * node is healthy: a busy node is better than none.
 */
export function rankForIngest<N extends MediaNodeRow>(nodes: N[], now: number, lostAfterMs: number): N[] {
  const byLoad = (a: N, b: N) => a.cpuLoad - b.cpuLoad || a.liveSessions / a.cores - b.liveSessions / b.cores || a.id.localeCompare(b.id);
  const up = nodes.filter((n) => nodeState(n, now, lostAfterMs) !== "lost").sort(byLoad);
  const healthy = up.filter((n) => nodeState(n, now, lostAfterMs) === "healthy");
  return healthy.length ? healthy : up;
}

export async function ingestNodes(): Promise<MediaNodeRow[]> {
  return rankForIngest(await db().select().from(mediaNodes), Date.now(), lostAfterMs());
}

const STATE_ORDER: MediaNode["state"][] = ["healthy", "overloaded", "lost"];

/** Every node seen, healthy ones first, then overloaded ones (for the CLI and the dashboard's nodes page). */
export async function listNodes(): Promise<MediaNode[]> {
  const now = Date.now();
  const rows = await db().select().from(mediaNodes).orderBy(desc(mediaNodes.lastHeartbeatAt));
  return rows
    .map(
      (n): MediaNode => ({
        id: n.id,
        ingestUrl: n.ingestUrl,
        rtmpPort: n.rtmpPort,
        state: nodeState(n, now, lostAfterMs()),
        cores: n.cores,
        cpuLoad: n.cpuLoad,
        liveSessions: n.liveSessions,
        laggingSessions: n.laggingSessions,
        startedAt: n.startedAt,
        lastHeartbeatAt: n.lastHeartbeatAt,
        lostAt: n.lostAt,
      }),
    )
    .sort((a, b) => STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state));
}

/**
 * The live work of the media nodes up on a machine (lib/av/machine.ts), for the job
 * workers there: they run fewer transcodes while it has broadcasts.
 */
export async function liveWorkOn(machine: string): Promise<LiveWork> {
  const [row] = await db()
    .select({
      sessions: sql<number>`coalesce(sum(${mediaNodes.liveSessions}), 0)::int`,
      lagging: sql<number>`coalesce(sum(${mediaNodes.laggingSessions}), 0)::int`,
    })
    .from(mediaNodes)
    .where(and(eq(mediaNodes.machine, machine), isNull(mediaNodes.lostAt), gte(mediaNodes.lastHeartbeatAt, Date.now() - lostAfterMs())));
  return row ?? { sessions: 0, lagging: 0 };
}

/**
 * Declares lost the nodes silent for NODE_LOST_AFTER_S and ends every live session
 * whose node has not reported it for as long (the session heartbeats every second):
 * stream.idle and recording.waiting go out, and the stream may publish again, on any node.
 */
export async function sweepLostNodes(now = Date.now()): Promise<string[]> {
  const cutoff = now - lostAfterMs();
  const lost = await db()
    .update(mediaNodes)
    .set({ lostAt: now })
    .where(and(isNull(mediaNodes.lostAt), lt(mediaNodes.lastHeartbeatAt, cutoff)))
    .returning({ id: mediaNodes.id });
  if (lost.length) console.error(`[nodes] lost: ${lost.map((n) => n.id).join(", ")}`);
  // A node lost a day ago is not coming back under its id (ids carry the process): forget it.
  await db()
    .delete(mediaNodes)
    .where(lt(mediaNodes.lostAt, now - FORGET_LOST_AFTER_MS));
  const stale = await db()
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.isActive, true), lt(sessions.lastSeen, cutoff)));
  for (const s of stale) await sessionEnded(s.id, { reason: "node-lost" });
  return stale.map((s) => s.id);
}

/** Runs the sweep every second or two on an app instance; returns its stop function. */
export function startNodeWatch(): () => void {
  let running = false;
  const timer = setInterval(
    async () => {
      if (running) return;
      running = true;
      await sweepLostNodes()
        .catch((err) => console.error("[nodes] sweep failed:", err.message))
        .finally(() => (running = false));
    },
    Math.min(2000, lostAfterMs() / 4),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** The node holding a stream's live broadcast, and the stream's key (what the node knows it by), while it is live. */
export async function liveNodeOf(streamId: string): Promise<{ streamKey: string; node: { id: string; webrtcUrl: string | null } } | undefined> {
  const [row] = await db()
    .select({ streamKey: streams.streamKey, id: mediaNodes.id, webrtcUrl: mediaNodes.webrtcUrl })
    .from(sessions)
    .innerJoin(streams, eq(streams.id, sessions.parentId))
    .innerJoin(mediaNodes, eq(mediaNodes.id, sessions.mediaNodeId))
    .where(and(eq(sessions.parentId, streamId), eq(sessions.isActive, true)));
  return row?.streamKey ? { streamKey: row.streamKey, node: { id: row.id, webrtcUrl: row.webrtcUrl } } : undefined;
}
