import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { commitThenAnnounce, db } from "@/db/client";
import { assetRenditions, assets, transcodeChunks } from "@/db/schema";
import { config } from "@/lib/config";
import { compact } from "@/lib/compact";
import { renditionChunkRequested } from "@/lib/jobs/events";
import { emitEach } from "@/lib/jobs/emit";
import { spawnTask, updateTask, writeTaskChange, type TaskChange } from "@/lib/tasks/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import { chunkPlan, defaultLadder, profileLadder, sourceVideo, type RenditionPlan } from "./ladder";
import { assetById, renditionsOf, serializeAsset, serializeRendition, writeAssetChange, type AssetRow, type RenditionRow } from "../service";

/**
 * An asset's ABR ladder as durable state in PostgreSQL: a row per rendition and
 * per chunk of it. Chunks are done by separate jobs on any worker; the job that
 * finishes a rendition's last chunk publishes it, and the last rendition to settle
 * ends the transcode task. Every function here can run again after a crash.
 */

export type ChunkRow = typeof transcodeChunks.$inferSelect;

export interface ChunkJob {
  assetId: string;
  rendition: string;
  index: number;
}

/**
 * Writes the asset's ladder and chunks (once: a second call finds them) and its
 * transcode-file task, and queues a job for every chunk still to do. Their event ids
 * name the chunk (a repeated call queues nothing twice) and sort one rendition's chunks
 * first: workers take due jobs in that order, so the first jobs claim whole chunks (every
 * rendition) and the later ones, finding their chunk taken, end at once.
 */
export async function startRenditions(assetId: string): Promise<number> {
  const todo = await planRenditions(assetId);
  await emitEach(
    renditionChunkRequested,
    todo.map(({ rank, ...job }) => ({ data: job, id: `${assetId}-r${String(rank).padStart(2, "0")}-c${String(job.index).padStart(5, "0")}` })),
  );
  return todo.length;
}

async function planRenditions(assetId: string): Promise<(ChunkJob & { rank: number })[]> {
  const asset = await assetById(assetId);
  const spec = asset?.videoSpec;
  const source = sourceVideo(spec);
  if (!asset || !source || asset.phase !== "ready") return [];
  const asked = asset.transcode?.profiles;
  const ladder: RenditionPlan[] = asked?.length ? profileLadder(asked, source) : defaultLadder(source);
  const chunks = chunkPlan(spec!.duration, config().TRANSCODE_CHUNK_S);
  const now = Date.now();

  // One run of the asset's processing plans at a time; a run redone after a crash finds what it wrote.
  let taskId = asset.transcode?.taskId;
  if (!taskId) {
    await db()
      .insert(assetRenditions)
      .values(ladder.map((r, position) => ({ assetId, position, ...renditionValues(r), chunks: chunks.length, phase: "transcoding", updatedAt: now })))
      .onConflictDoNothing();
    await db()
      .insert(transcodeChunks)
      .values(ladder.flatMap((r) => chunks.map((c) => ({ assetId, rendition: r.name, index: c.index, start: c.start, duration: c.duration }))))
      .onConflictDoNothing();
    const task = await spawnTask({
      userId: asset.userId,
      type: "transcode-file",
      inputAssetId: assetId,
      outputAssetId: assetId,
      params: { transcode: compact({ profiles: ladder, staticMp4: asset.transcode?.staticMp4 }) },
    });
    taskId = task.id;
    await db()
      .update(assets)
      .set({ transcode: { ...asset.transcode, taskId }, progress: 0 })
      .where(eq(assets.id, assetId));
    await updateTask(taskId, { phase: "running", progress: 0 });
  }

  const todo = await db()
    .select({ rendition: transcodeChunks.rendition, index: transcodeChunks.index, position: assetRenditions.position })
    .from(transcodeChunks)
    .innerJoin(assetRenditions, and(eq(assetRenditions.assetId, transcodeChunks.assetId), eq(assetRenditions.name, transcodeChunks.rendition)))
    .where(and(eq(transcodeChunks.assetId, assetId), isNull(transcodeChunks.doneAt)));
  return todo.map(({ rendition, index, position }) => ({ assetId, rendition, index, rank: ladder.length - 1 - position }));
}

const renditionValues = (r: RenditionPlan) => ({
  name: r.name,
  width: r.width,
  height: r.height,
  bitrate: r.bitrate,
  fps: r.fps,
  quality: r.quality ?? null,
  gop: r.gop ?? null,
  h264Profile: r.h264Profile ?? null,
});

export interface ChunkBatch {
  chunk: ChunkRow;
  /** The renditions this job encodes for the chunk: its own and any other not yet taken. */
  renditions: RenditionRow[];
}

/**
 * Takes the job's chunk for every rendition nobody else has (or this same job had, before a
 * crash). Empty when another job took the job's own rendition: that job finishes it. A retry
 * keeps what its killed attempt held even when its own rendition got done before the kill:
 * the other renditions' jobs found them taken and ended, so nobody else would do them.
 */
export async function claimChunk(job: ChunkJob, claimant: string): Promise<ChunkBatch | undefined> {
  return db().transaction(async (tx) => {
    const ofChunk = and(eq(transcodeChunks.assetId, job.assetId), eq(transcodeChunks.index, job.index));
    const [held] = await tx
      .select({ rendition: transcodeChunks.rendition })
      .from(transcodeChunks)
      .where(and(ofChunk, eq(transcodeChunks.claimedBy, claimant)))
      .limit(1);
    const claimed = await tx
      .update(transcodeChunks)
      .set({ claimedBy: claimant })
      .where(and(ofChunk, isNull(transcodeChunks.doneAt), or(isNull(transcodeChunks.claimedBy), eq(transcodeChunks.claimedBy, claimant))))
      .returning();
    if (!held && !claimed.some((c) => c.rendition === job.rendition)) {
      // Not ours after all: give the others back for their own jobs.
      if (claimed.length) await tx.update(transcodeChunks).set({ claimedBy: null }).where(claimedRows(job, claimant));
      return undefined;
    }
    if (!claimed.length) return undefined;
    const renditions = (await tx.select().from(assetRenditions).where(eq(assetRenditions.assetId, job.assetId))).filter(
      (r) => r.phase === "transcoding" && claimed.some((c) => c.rendition === r.name),
    );
    return { chunk: claimed.find((c) => c.rendition === job.rendition) ?? claimed[0], renditions };
  });
}

/**
 * Renditions this job finished the last chunk of in an attempt that died before publishing
 * them: all their chunks done, among them one this job did, and not yet published.
 */
export async function finishedUnpublished(job: ChunkJob, claimant: string): Promise<string[]> {
  const rows = await db()
    .select({ name: assetRenditions.name })
    .from(assetRenditions)
    .innerJoin(transcodeChunks, and(eq(transcodeChunks.assetId, assetRenditions.assetId), eq(transcodeChunks.rendition, assetRenditions.name)))
    .where(
      and(
        eq(assetRenditions.assetId, job.assetId),
        eq(assetRenditions.phase, "transcoding"),
        sql`${assetRenditions.chunksDone} >= ${assetRenditions.chunks}`,
        eq(transcodeChunks.index, job.index),
        eq(transcodeChunks.claimedBy, claimant),
      ),
    );
  return rows.map((r) => r.name);
}

const claimedRows = (job: ChunkJob, claimant: string) =>
  and(eq(transcodeChunks.assetId, job.assetId), eq(transcodeChunks.index, job.index), eq(transcodeChunks.claimedBy, claimant), isNull(transcodeChunks.doneAt));

/** The renditions a job that gave up had taken (its own included): they fail with it. */
export async function renditionsClaimedBy(job: ChunkJob, claimant: string): Promise<string[]> {
  const rows = await db().select({ rendition: transcodeChunks.rendition }).from(transcodeChunks).where(claimedRows(job, claimant));
  return [...new Set([job.rendition, ...rows.map((r) => r.rendition)])];
}

/**
 * Records a transcoded chunk (once: a chunk redone after a crash counts once) and
 * moves the asset's progress. True when it was the rendition's last chunk.
 */
export async function finishChunk(job: ChunkJob, segments: NonNullable<ChunkRow["segments"]>, worker: string): Promise<boolean> {
  return db().transaction(async (tx) => {
    const marked = await tx
      .update(transcodeChunks)
      .set({ segments, worker, doneAt: Date.now() })
      .where(
        and(
          eq(transcodeChunks.assetId, job.assetId),
          eq(transcodeChunks.rendition, job.rendition),
          eq(transcodeChunks.index, job.index),
          isNull(transcodeChunks.doneAt),
        ),
      )
      .returning({ index: transcodeChunks.index });
    const [rendition] = marked.length
      ? await tx
          .update(assetRenditions)
          .set({ chunksDone: sql`${assetRenditions.chunksDone} + 1`, updatedAt: Date.now() })
          .where(and(eq(assetRenditions.assetId, job.assetId), eq(assetRenditions.name, job.rendition)))
          .returning()
      : await tx
          .select()
          .from(assetRenditions)
          .where(and(eq(assetRenditions.assetId, job.assetId), eq(assetRenditions.name, job.rendition)));
    if (marked.length) await tx.execute(progressUpdate(job.assetId));
    return Boolean(rendition) && rendition.chunksDone >= rendition.chunks;
  });
}

/** The asset's progress: the share of all its chunks done, while any rendition transcodes. */
const progressUpdate = (assetId: string) => sql`
  UPDATE assets SET progress = p.done, updated_at = ${Date.now()}
  FROM (SELECT sum(chunks_done)::real / greatest(sum(chunks), 1) AS done FROM asset_renditions WHERE asset_id = ${assetId}) p
  WHERE id = ${assetId} AND phase = 'ready'`;

/** The rendition's chunks, in order, done. */
export async function renditionChunks(assetId: string, rendition: string): Promise<ChunkRow[]> {
  return db()
    .select()
    .from(transcodeChunks)
    .where(and(eq(transcodeChunks.assetId, assetId), eq(transcodeChunks.rendition, rendition)))
    .orderBy(asc(transcodeChunks.index));
}

export async function updateRendition(assetId: string, name: string, change: Partial<RenditionRow>): Promise<RenditionRow | undefined> {
  const [row] = await db()
    .update(assetRenditions)
    .set({ ...change, updatedAt: Date.now() })
    .where(and(eq(assetRenditions.assetId, assetId), eq(assetRenditions.name, name)))
    .returning();
  return row;
}

/** A rendition that gave up after its retries: the asset stays playable with the others. */
export async function failRendition(assetId: string, name: string, reason: string): Promise<void> {
  await db()
    .update(assetRenditions)
    .set({ phase: "failed", errorMessage: reason, updatedAt: Date.now() })
    .where(and(eq(assetRenditions.assetId, assetId), eq(assetRenditions.name, name), eq(assetRenditions.phase, "transcoding")));
  await settleTranscode(assetId);
}

/**
 * Announces a rendition that joined the master playlist, and ends the transcode
 * (task completed, or failed when no rendition could be made) once none is left.
 */
export async function settleTranscode(assetId: string, published?: string): Promise<void> {
  const asset = await assetById(assetId);
  if (!asset) return;
  const renditions = await renditionsOf(assetId);
  const open = renditions.filter((r) => r.phase === "transcoding");
  const taskId = asset.transcode?.taskId;
  if (open.length) {
    if (published) await announceRenditions(asset, asset, renditions);
    // The asset's progress, which finishChunk keeps.
    if (taskId) await updateTask(taskId, { progress: asset.progress ?? 0 });
    return;
  }
  // The last one ended: the asset stops reading as transcoding and its task ends in the same commit.
  const failed = renditions.filter((r) => r.phase === "failed");
  let row: AssetRow = asset;
  await commitThenAnnounce(async (tx) => {
    const settled = asset.progress !== null ? await writeAssetChange(tx, assetId, { progress: null }) : undefined;
    row = settled?.row ?? asset;
    if (!taskId) return [settled];
    const end: TaskChange =
      failed.length === renditions.length
        ? { phase: "failed", errorMessage: failed.map((r) => `${r.name}: ${r.errorMessage}`).join("; ") }
        : { phase: "completed", progress: 1, output: { transcode: { renditions: renditions.map((r) => serializeRendition(r, asset.playbackId)) } } };
    return [settled, await writeTaskChange(tx, taskId, end)];
  });
  await announceRenditions(asset, row, renditions);
}

function announceRenditions(asset: AssetRow, row: AssetRow, renditions: RenditionRow[]) {
  const payload = { asset: serializeAsset(row, { renditions: renditions.map((r) => serializeRendition(r, asset.playbackId)) }) };
  return notifyWebhooks(asset.userId, "asset.updated", { payload });
}
