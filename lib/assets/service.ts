import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";
import { compact } from "@/lib/api/compact";
import { notFound } from "@/lib/api/errors";
import { pageWindow, toPage, type Page, type PageQuery } from "@/lib/api/pagination";
import { publicOrigin } from "@/lib/origin";
import type { Asset } from "./schema";

export type AssetRow = typeof assets.$inferSelect;

export function serializeAsset(row: AssetRow): Asset {
  return compact({
    id: row.id,
    name: row.name,
    userId: row.userId,
    createdAt: row.createdAt,
    playbackId: row.playbackId,
    status: compact({
      phase: row.phase as Asset["status"]["phase"],
      updatedAt: row.updatedAt,
      progress: row.progress,
      errorMessage: row.errorMessage,
    }),
    source: row.source,
    size: row.size,
    hash: row.hash,
    videoSpec: row.videoSpec as Asset["videoSpec"] | null,
    storage: row.storage,
    playbackUrl: row.files?.hls ? `${publicOrigin()}${row.files.hls}` : undefined,
    downloadUrl: row.files?.mp4 ? `${publicOrigin()}/asset/${row.playbackId}/video` : undefined,
  });
}

const visible = (userId: string) => and(eq(assets.userId, userId), isNull(assets.deletedAt));

export async function listAssets(userId: string, page: PageQuery): Promise<Page<Asset>> {
  const window = pageWindow(assets, page);
  const rows = await db()
    .select()
    .from(assets)
    .where(and(visible(userId), window.after))
    .orderBy(...window.orderBy)
    .limit(window.limit);
  const { items, next } = toPage(rows, page.limit);
  return { items: items.map(serializeAsset), next };
}

export async function getAsset(userId: string, id: string): Promise<Asset> {
  const row = await db().query.assets.findFirst({ where: and(eq(assets.id, id), visible(userId)) });
  if (!row) throw notFound("asset");
  return serializeAsset(row);
}

/** Hides the asset from the API; its stored files stay reachable by playback id (the spec says so). */
export async function deleteAsset(userId: string, id: string): Promise<void> {
  const deleted = await db()
    .update(assets)
    .set({ deletedAt: Date.now() })
    .where(and(eq(assets.id, id), visible(userId)))
    .returning({ id: assets.id });
  if (!deleted.length) throw notFound("asset");
}
