import { objects } from "@/lib/storage";
import { sourceKey } from "../keys";
import { assetById } from "../service";

const POLL_MS = 1000;

export type UploadWatch = "arrived" | "waiting" | "expired" | "gone";

/**
 * For uploads PUT straight to S3: whether the object has arrived, looking once a
 * second for `forMs`. An S3 PUT is atomic, so an object that exists is complete.
 */
export async function watchForUpload(assetId: string, expiresAt: number, forMs: number): Promise<UploadWatch> {
  const until = Date.now() + forMs;
  for (;;) {
    const asset = await assetById(assetId);
    // Deleted, or the file came through the app's own URLs (tus) instead.
    if (!asset || asset.deletedAt || (asset.phase !== "waiting" && asset.phase !== "uploading")) return "gone";
    // While a tus upload holds the asset its file will replace this one; if it breaks off, this one counts.
    const held = asset.phase === "uploading" && (asset.uploadLeaseUntil ?? 0) >= Date.now();
    if (!held && (await objects().stat(sourceKey(assetId)))) return "arrived";
    if (Date.now() > expiresAt) return "expired";
    if (Date.now() >= until) return "waiting";
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
