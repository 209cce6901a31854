import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { tasks } from "@/db/schema";
import { config } from "@/lib/config";
import { BodyTooLarge } from "@/lib/bounded-body";
import { conflict, forbidden, invalid, notFound, timedOut, type Refusal } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { assetSourceStored } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { objects } from "@/lib/storage";
import { updateTask } from "@/lib/tasks/service";
import { sourceKey } from "../keys";
import { storeSource } from "../processing/pipeline";
import type { Asset } from "../schema";
import { assetById, claimUpload, finishUpload, lapsedUploads, releaseUpload, renewUpload, serializeAsset, type AssetRow } from "../service";
import { assetOfTusUpload, removeTusUploadsOf, tusStore, tusUploads, type StoredTusUpload } from "./tus-store";
import { verifyUploadToken } from "./token";

/** The import task that request-upload made with the asset. */
export async function uploadTaskOf(assetId: string): Promise<string | undefined> {
  const task = await db().query.tasks.findFirst({ where: and(eq(tasks.outputAssetId, assetId), eq(tasks.type, "import")) });
  return task?.id;
}

const leaseMs = () => config().UPLOAD_LEASE_S * 1000;

/**
 * Claims the asset for an upload (`claim`: a new id for a PUT, the upload's id
 * for tus), or says clearly why it cannot take one. Whatever uploads that lost
 * the asset left behind goes: none of them can still be writing.
 */
export async function claimForUpload(assetId: string, claim = newId()): Promise<string> {
  if (await claimUpload(assetId, claim)) {
    await removeAbandoned(assetId, claim);
    return claim;
  }
  const asset = await assetById(assetId);
  if (!asset || asset.deletedAt) throw notFound("asset");
  if (asset.phase !== "uploading") throw conflict(`this asset already has its file (phase: ${asset.phase})`);
  const wait = Math.max(1, Math.ceil(((asset.uploadLeaseUntil ?? 0) - Date.now()) / 1000));
  throw conflict(
    `an upload to this asset is already in progress; if it was interrupted, the asset is free again after ${config().UPLOAD_LEASE_S} s without data`,
    wait,
  );
}

async function removeAbandoned(assetId: string, claim: string) {
  await objects().removeUnfinished(sourceKey(assetId), new Date());
  await removeTusUploadsOf(assetId, claim);
}

class LeaseLost extends Error {}
class UploadStalled extends Error {}

/**
 * An upload's hold on its asset while its bytes stream in: the claim is renewed
 * as bytes arrive (every third of a lease), checked once more after the last
 * one, so that an upload that lost the asset never replaces another's file,
 * and the upload is ended when no byte came for a whole lease (its client
 * stalled or vanished: by then another upload may have the asset).
 */
export class UploadLease {
  private held?: { assetId: string; claim: string };
  private renewedAt = Date.now();
  /** Why the upload was ended, for the answer to its request. */
  failure?: Refusal;

  constructor(assetId?: string, claim?: string) {
    if (assetId && claim) this.hold(assetId, claim);
  }

  /** For tus, whose upload is known only once its request is under way. */
  hold(assetId: string, claim: string) {
    this.held = { assetId, claim };
    this.renewedAt = Date.now();
  }

  /** The body's bytes, read only as fast as they are consumed. */
  async *watch(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
    const reader = body.getReader();
    // Only time spent waiting for the client counts, not time its bytes wait for the disk.
    let waitingSince = 0;
    let stalled = false;
    const stallCheck = setInterval(() => {
      if (!waitingSince || Date.now() - waitingSince < leaseMs()) return;
      stalled = true;
      reader.cancel().catch(() => {}); // ends the pending read
    }, Math.min(1000, leaseMs() / 3));
    try {
      for (;;) {
        waitingSince = Date.now();
        const { done, value } = await reader.read();
        waitingSince = 0;
        if (stalled) throw new UploadStalled();
        if (done) break;
        if (Date.now() - this.renewedAt >= leaseMs() / 3) await this.renew();
        yield value;
      }
      await this.renew();
    } catch (err) {
      if (err instanceof LeaseLost) {
        this.failure = conflict(`this upload sent no data for more than ${config().UPLOAD_LEASE_S} s and lost the asset, or the asset was deleted: send the file again`);
      } else if (err instanceof UploadStalled) {
        this.failure = timedOut(`no data for ${config().UPLOAD_LEASE_S} s: the upload was stopped; send the file again`);
      }
      throw this.failure ?? err;
    } finally {
      clearInterval(stallCheck);
      // A body not read to its end (a stall, a failure downstream) is abandoned.
      reader.cancel().catch(() => {});
    }
  }

  private async renew() {
    if (!this.held) return;
    if (!(await renewUpload(this.held.assetId, this.held.claim))) throw new LeaseLost();
    this.renewedAt = Date.now();
  }
}

/**
 * The body of an upload (PUT to the pre-signed URL, or a finished tus upload)
 * for the asset its claim holds: streamed into the store with its hashes while
 * the claim is kept, then processing starts. An upload that breaks off frees
 * the asset for another try with the same URL.
 */
export async function receiveUpload(assetId: string, claim: string, body: ReadableStream<Uint8Array>): Promise<void> {
  const lease = new UploadLease(assetId, claim);
  try {
    await storeSource(assetId, Readable.from(lease.watch(body), { objectMode: false }));
  } catch (err) {
    await releaseUpload(assetId, claim);
    // Over the limit: BodyTooLarge, a 413. The store may fail first ("premature close"): the lease knows why.
    throw lease.failure ?? err;
  }
  await startProcessing(assetId, claim);
}

/**
 * A PUT to the pre-signed URL: the token is the permission (one asset, until it expires
 * or an upload completes); the body streams to storage. Answers the asset as it then is.
 */
export async function receiveSignedUpload(token: string | null, declaredBytes: number, body: ReadableStream<Uint8Array> | null): Promise<Asset> {
  const check = verifyUploadToken(token);
  if (!check.ok) throw forbidden(check.reason);
  const limit = config().MAX_UPLOAD_BYTES;
  if (declaredBytes > limit) throw new BodyTooLarge("the file", limit);
  if (!body) throw invalid("the request has no body: PUT the file as the body");
  const claim = await claimForUpload(check.assetId);
  await receiveUpload(check.assetId, claim, body);
  return serializeAsset((await assetById(check.assetId))!);
}

/** A finished tus upload: its file goes to the asset's storage, and its parts go. */
export async function receiveTusUpload(assetId: string, uploadId: string): Promise<void> {
  const file = Readable.toWeb(await tusUploads().read(uploadId)) as ReadableStream<Uint8Array>;
  await receiveUpload(assetId, uploadId, file);
  await tusUploads().remove(uploadId);
}

/** The file is in the store: processing starts, and the claim gives way to it. */
export async function startProcessing(assetId: string, claim: string): Promise<void> {
  const taskId = await uploadTaskOf(assetId);
  // The event first, with an id of its own: once it is stored, the file is processed even if this process dies now.
  await emit(assetSourceStored, { assetId, taskId }, { id: `${assetSourceStored.name}:${assetId}` });
  if ((await finishUpload(assetId, claim, 0.1)) && taskId) await updateTask(taskId, { phase: "running", progress: 0.1 });
}

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
