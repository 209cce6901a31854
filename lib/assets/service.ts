import { and, asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { db, type Executor, type Written } from "@/db/client";
import { assetRenditions, assets, tasks } from "@/db/schema";
import { checkPlaybackPolicy } from "@/lib/access/policy";
import type { PlaybackPolicy } from "@/lib/access/schema";
import { compact } from "@/lib/compact";
import { notFound } from "@/lib/errors";
import { inRange, nameContains, pageOf, type Page } from "@/db/pagination";
import type { Order, PageQuery } from "@/lib/api/list-query";
import { config } from "@/lib/config";
import { newId, newPlaybackId } from "@/lib/ids";
import { assetPurged } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { publicOrigin } from "@/lib/origin";
import { objects } from "@/lib/storage";
import { updateTask } from "@/lib/tasks/service";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import type { WebhookEvent } from "@/lib/webhooks/events";
import type { Asset, AssetFilter, AssetPatch, AssetPhase, AssetRendition, AssetSource, TranscodeOptions } from "./schema";

export type AssetRow = typeof assets.$inferSelect;
export type RenditionRow = typeof assetRenditions.$inferSelect;

/** Download URLs may point at a CDN in front of the app (CDN_URL); the app serves them too. */
const cdnOrigin = () => (config().CDN_URL ?? publicOrigin()).replace(/\/$/, "");

/** A static MP4 rendition, with range requests. */
export const mp4Url = (playbackId: string, rendition: string) => `${cdnOrigin()}/asset/${playbackId}/mp4/${rendition}.mp4`;

/** The asset's ABR ladder, tallest first (lib/assets/processing/renditions.ts makes it). */
export async function renditionsOf(assetId: string): Promise<RenditionRow[]> {
  return db().select().from(assetRenditions).where(eq(assetRenditions.assetId, assetId)).orderBy(asc(assetRenditions.position));
}

export function serializeRendition(r: RenditionRow, playbackId: string): AssetRendition {
  return compact({
    name: r.name,
    width: r.width,
    height: r.height,
    bitrate: r.bitrate,
    fps: r.fps,
    phase: r.phase as AssetRendition["phase"],
    progress: r.chunks ? r.chunksDone / r.chunks : 0,
    errorMessage: r.errorMessage,
    mp4Url: r.mp4Key ? mp4Url(playbackId, r.name) : undefined,
  });
}

/** An asset's HLS (its renditions' master playlist), once it has one. */
export const assetHlsUrl = (playbackId: string) => `${publicOrigin()}/asset/${playbackId}/hls/index.m3u8`;

/** `renditions` only where they were read (GET /asset/{id}, asset.updated): lists leave them out. */
export function serializeAsset(row: AssetRow, { renditions }: { renditions?: AssetRendition[] } = {}): Asset {
  const ready = row.phase === "ready";
  // A ready asset's progress is its renditions' transcode: with none left transcoding there is
  // none, even in the moment before settleTranscode clears the column. Before the ladder is
  // planned (no rendition yet) the column says whether one is coming (lib/assets/processing/pipeline.ts).
  const settled = ready && !!renditions?.length && !renditions.some((r) => r.phase === "transcoding");
  return compact({
    id: row.id,
    name: row.name,
    userId: row.userId,
    createdAt: row.createdAt,
    playbackId: row.playbackId,
    status: compact({
      phase: row.phase as AssetPhase,
      updatedAt: row.updatedAt,
      progress: settled ? null : row.progress,
      errorMessage: row.errorMessage,
      storage: row.storageStatus,
    }),
    source: row.source,
    size: row.size,
    hash: row.hash,
    videoSpec: row.videoSpec,
    storage: row.storage,
    playbackUrl: ready && row.files?.hls ? assetHlsUrl(row.playbackId) : undefined,
    downloadUrl: ready && row.files?.source ? `${cdnOrigin()}/asset/${row.playbackId}/video` : undefined,
    playbackPolicy: row.playbackPolicy,
    renditions,
  });
}

const visible = (userId: string) => and(eq(assets.userId, userId), isNull(assets.deletedAt));

const assetDuration = sql`(${assets.videoSpec}->>'duration')::double precision`;

function assetFilter(f: AssetFilter): SQL[] {
  switch (f.id) {
    case "name":
      return [nameContains(assets.name, f.value)];
    case "status.phase":
      return [eq(assets.phase, f.value)];
    case "source.type":
      return [sql`${assets.source}->>'type' = ${f.value}`];
    case "videoSpec.duration":
      return inRange(assetDuration, f.value);
    case "createdAt":
      return inRange(assets.createdAt, f.value);
  }
}

export interface AssetListOptions extends PageQuery {
  filters: AssetFilter[];
  order: Order;
}

/** A user's assets, filtered and sorted; assets not yet probed sort as lasting 0 s. */
export async function listAssets(userId: string, opts: AssetListOptions): Promise<Page<Asset>> {
  const key = opts.order.by === "videoSpec.duration" ? sql`coalesce(${assetDuration}, 0)` : assets.createdAt;
  const where = and(visible(userId), ...opts.filters.flatMap(assetFilter));
  return pageOf(assets, where, opts, serializeAsset, { order: opts.order, key });
}

export async function ownAsset(userId: string, id: string): Promise<AssetRow> {
  const row = await db().query.assets.findFirst({ where: and(eq(assets.id, id), visible(userId)) });
  if (!row) throw notFound("asset");
  return row;
}

export async function getAsset(userId: string, id: string): Promise<Asset> {
  const row = await ownAsset(userId, id);
  return serializeAsset(row, { renditions: (await renditionsOf(id)).map((r) => serializeRendition(r, row.playbackId)) });
}

/**
 * DELETE /asset/{id}: hides the asset from the API, and calls off its work (tasks not ended
 * are cancelled; jobs under way stop: lib/assets/cancel.ts). Its stored files stay reachable
 * by playback id, as the spec says; with `purge` (a takedown) no playback path serves it any
 * more, on any instance, from now on, and its files are removed by a job. A takedown also
 * works on an asset deleted before without it.
 */
export async function deleteAsset(userId: string, id: string, opts: { purge?: boolean } = {}): Promise<void> {
  const now = Date.now();
  const mine = and(eq(assets.id, id), eq(assets.userId, userId));
  const [deleted] = await db()
    .update(assets)
    .set({ deletedAt: sql`coalesce(${assets.deletedAt}, ${now})`, ...(opts.purge ? { purgedAt: sql`coalesce(${assets.purgedAt}, ${now})` } : {}) })
    .where(opts.purge ? mine : and(mine, isNull(assets.deletedAt)))
    .returning();
  if (!deleted) throw notFound("asset");
  const unfinished = await db().query.tasks.findMany({
    where: and(or(eq(tasks.outputAssetId, id), eq(tasks.inputAssetId, id)), inArray(tasks.phase, ["pending", "waiting", "running"])),
    columns: { id: true },
  });
  for (const task of unfinished) await updateTask(task.id, { phase: "cancelled", errorMessage: "the asset was deleted" });
  if (opts.purge) await emit(assetPurged, { assetId: id });
  // Once: a takedown of an asset deleted before is not a second deletion.
  if (deleted.deletedAt === now) await notifyWebhooks(userId, "asset.deleted", { payload: { asset: serializeAsset(deleted) } });
}

/** The stored files of a purged asset: its own prefix, and a recording's segments (the same content). */
export async function removePurgedFiles(assetId: string): Promise<void> {
  const asset = await assetById(assetId);
  if (!asset?.purgedAt) return;
  await objects().removePrefix(`assets/${assetId}/`);
  if (asset.source.type === "recording") await objects().removePrefix(`recordings/${asset.source.sessionId}/`);
}

export interface NewAsset {
  name: string;
  source: AssetSource;
  phase: AssetPhase;
  /** Fixed beforehand when a retried step must find the same asset (recordings). */
  id?: string;
  transcode?: TranscodeOptions;
  /** Who may watch; a recording or clip inherits its source's. */
  playbackPolicy?: PlaybackPolicy | null;
}

/** A new asset, announced as asset.created. */
export async function createAsset(userId: string, { name, source, phase, id = newId(), transcode = {}, playbackPolicy = null }: NewAsset): Promise<AssetRow> {
  const now = Date.now();
  const [row] = await db()
    .insert(assets)
    .values({ id, userId, name, playbackId: newPlaybackId(), phase, source, transcode: compact(transcode), playbackPolicy, updatedAt: now, createdAt: now })
    .returning();
  await notifyWebhooks(userId, "asset.created", { payload: { asset: serializeAsset(row) } });
  return row;
}

/** PATCH /asset/{id}: its name and who may watch it (Livepeer's mutable fields we keep). */
export async function patchAsset(userId: string, id: string, patch: AssetPatch): Promise<Asset> {
  await ownAsset(userId, id);
  const changes: Partial<AssetRow> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.playbackPolicy !== undefined) changes.playbackPolicy = await checkPlaybackPolicy(userId, patch.playbackPolicy);
  if (Object.keys(changes).length) {
    const [row] = await db()
      .update(assets)
      .set(changes)
      .where(and(eq(assets.id, id), visible(userId)))
      .returning();
    if (!row) throw notFound("asset");
    await notifyWebhooks(userId, "asset.updated", { payload: { asset: serializeAsset(row) } });
  }
  return getAsset(userId, id);
}

const PHASE_EVENTS: Partial<Record<AssetPhase, Extract<WebhookEvent, `asset.${string}`>>> = { ready: "asset.ready", failed: "asset.failed" };

export type AssetChange = Partial<
  Pick<AssetRow, "phase" | "progress" | "errorMessage" | "size" | "hash" | "videoSpec" | "files" | "storage" | "storageStatus">
>;

/** Moves an asset along; reaching ready or failed is announced to webhooks. */
export async function updateAsset(assetId: string, change: AssetChange, onlyFrom?: AssetPhase[]): Promise<AssetRow | undefined> {
  const written = await writeAssetChange(db(), assetId, change, onlyFrom);
  await written?.announce();
  return written?.row;
}

/** updateAsset's write, on `tx` (a caller's transaction, so it commits with other writes); the caller announces it after. */
export async function writeAssetChange(tx: Executor, assetId: string, change: AssetChange, onlyFrom?: AssetPhase[]): Promise<Written<AssetRow> | undefined> {
  const before = await tx.query.assets.findFirst({ where: eq(assets.id, assetId) });
  if (!before || (onlyFrom && !onlyFrom.includes(before.phase as AssetPhase))) return undefined;
  // The phases are checked again by the update itself: the asset may have moved on since it was read.
  const [row] = await tx
    .update(assets)
    .set({ ...change, updatedAt: Date.now() })
    .where(onlyFrom ? and(eq(assets.id, assetId), inArray(assets.phase, onlyFrom)) : eq(assets.id, assetId))
    .returning();
  if (!row) return undefined;
  const event = change.phase && change.phase !== before.phase ? PHASE_EVENTS[change.phase as AssetPhase] : undefined;
  return { row, announce: async () => void (event && (await notifyWebhooks(row.userId, event, { payload: { asset: serializeAsset(row) } }))) };
}

export async function assetById(assetId: string) {
  return db().query.assets.findFirst({ where: eq(assets.id, assetId) });
}
