import { newId } from "@/lib/ids";
import { objects } from "@/lib/storage";
import { sourceKey } from "../keys";
import { assetById, type AssetRow } from "../service";
import { claimUpload, lapsedUploads, leaseMs, releaseUpload } from "./lease";
import { receiveTusUpload, startProcessing } from "./receive";
import { assetOfTusUpload, tusStore, tusUploads, type StoredTusUpload } from "./tus-store";

/**
 * Frees what interrupted uploads hold, with nobody retrying: assets whose
 * upload's lease lapsed wait again (or go on to processing if their file was
 * stored before the process died), the parts of dead PUTs are removed, and so
 * are tus uploads that expired or whose asset is gone or has its file. Paused
 * tus uploads stay resumable.
 */
export async function sweepUploads(now = Date.now()): Promise<void> {
  for (const asset of await lapsedUploads(now)) await logged(asset.id, () => sweepLapsedUpload(asset, now));
  for (const upload of await tusUploads().list()) await logged(upload.id, () => sweepTusUpload(upload, now));
}

/** One upload's trouble does not hold up the others; the next sweep tries again. */
async function logged(what: string, sweep: () => Promise<void>) {
  await sweep().catch((err) => console.error(`sweeping the upload ${what} failed:`, err));
}

async function sweepLapsedUpload(asset: AssetRow, now: number) {
  if (asset.files?.source && !asset.deletedAt) {
    // Stored, and the process died before processing started.
    const claim = newId();
    if (await claimUpload(asset.id, claim)) await startProcessing(asset.id, claim);
    return;
  }
  // Parts last written before the lease lapsed are the dead upload's; a newer claim's are newer.
  await objects().removeUnfinished(sourceKey(asset.id), new Date(asset.uploadLeaseUntil ?? now));
  await releaseUpload(asset.id, asset.uploadClaim);
}

async function sweepTusUpload({ id, whole, modifiedAt }: StoredTusUpload, now: number) {
  if (!whole) {
    // Half of an upload (a crash between its two writes), unless it is being created right now.
    if (modifiedAt < now - leaseMs()) await tusUploads().remove(id);
    return;
  }
  const upload = await tusStore().getUpload(id);
  const assetId = assetOfTusUpload(id)!;
  const asset = await assetById(assetId);
  const lapsed = !asset?.uploadLeaseUntil || asset.uploadLeaseUntil < now;
  if (asset?.phase === "uploading" && asset.uploadClaim === id && !lapsed) return; // streaming, or moving to storage
  // For good: the asset is gone or has its file. (One taken over by another upload was removed by it.)
  const over = !asset || asset.deletedAt || (asset.phase !== "waiting" && asset.phase !== "uploading");
  const expired = new Date(upload.creation_date!).getTime() + tusStore().getExpiration() < now;
  if (over || expired) return tusUploads().remove(id);
  // Complete, but the process died while moving it to storage: finish what it started.
  if (upload.offset === upload.size && (await claimUpload(assetId, id))) await receiveTusUpload(assetId, id);
}

/**
 * Sweeps now and then every lease, in the app's process (without S3 the tus parts
 * are on its disk). With S3 every instance sweeps the same bucket and database:
 * each step is conditional (a claim taken in one UPDATE, removals of what is
 * already gone do nothing), so instances sweeping at once do each thing once.
 */
export function startUploadSweeper(): () => void {
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    await sweepUploads()
      .catch((err) => console.error("sweeping interrupted uploads failed:", err))
      .finally(() => (sweeping = false));
  };
  void sweep();
  const timer = setInterval(sweep, leaseMs());
  timer.unref();
  return () => clearInterval(timer);
}
