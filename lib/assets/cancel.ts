import { NonRetriableError } from "inngest";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";
import { cancellable } from "@/lib/cancellation";
import { removePurgedFiles } from "./service";

/** How soon a delete stops an asset's ffmpeg runs. */
const WATCH_EVERY_MS = 2000;

/** Work for an asset that was deleted: not retried, and not a failure of the asset (its tasks say "cancelled"). */
export class AssetDeleted extends NonRetriableError {
  constructor(assetId: string) {
    super(`asset ${assetId} was deleted: its work is called off`);
  }
}

async function deleted(assetId: string): Promise<boolean> {
  const row = await db().query.assets.findFirst({ where: eq(assets.id, assetId), columns: { deletedAt: true } });
  return !row || row.deletedAt !== null;
}

/**
 * Called-off work of a taken-down asset removes what it wrote, once it stopped: files a job was
 * still writing when the takedown's own removal ran go with the last of its jobs, not a minute
 * later with the takedown's second pass (which stays, for a worker that died meanwhile).
 */
async function calledOff(assetId: string): Promise<AssetDeleted> {
  await removePurgedFiles(assetId).catch((err) => console.error(`[assets] removing what the work of taken-down asset ${assetId} left:`, err));
  return new AssetDeleted(assetId);
}

/**
 * Runs a step of an asset's background work (processing, renditions, previews, clips) while
 * the asset exists: a deleted asset's work does not start, and work under way stops within
 * seconds of the delete (its ffmpeg runs are stopped), on whichever worker it runs.
 */
export async function whileAssetExists<T>(assetId: string, work: () => Promise<T>): Promise<T> {
  if (await deleted(assetId)) throw await calledOff(assetId);
  const controller = new AbortController();
  const watch = setInterval(() => {
    deleted(assetId).then(
      (gone) => gone && controller.abort(new AssetDeleted(assetId)),
      () => {},
    );
  }, WATCH_EVERY_MS);
  try {
    return await cancellable(controller.signal, work);
  } catch (err) {
    if (controller.signal.aborted) throw await calledOff(assetId);
    throw err;
  } finally {
    clearInterval(watch);
  }
}
