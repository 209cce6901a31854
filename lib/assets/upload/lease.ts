import type { ReadableStream } from "node:stream/web";
import { and, eq, gte, isNull, lt, or } from "drizzle-orm";
import { db } from "@/db/client";
import { assets } from "@/db/schema";
import { config } from "@/lib/config";
import { conflict, notFound, timedOut, type Refusal } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { objects } from "@/lib/storage";
import { sourceKey } from "../keys";
import { assetById, type AssetRow } from "../service";
import { removeTusUploadsOf } from "./tus-store";

/**
 * An upload holds its asset with a claim (the PUT's or tus upload's id) under a
 * lease of UPLOAD_LEASE_S that bytes arriving renew: a second upload to the same
 * asset is refused rather than mixed with the first, while one that stalled,
 * disconnected or died with its process frees the asset when its lease lapses.
 * The claim lives on the asset's row (taken, renewed, released, finished, lapsed);
 * UploadLease keeps it while bytes stream in. A PUT (receive.ts), tus (tus-server.ts),
 * the sweeper (sweep.ts) and the job that watches S3 for a PUT (awaitUpload) take
 * their claims here, the one place that knows the lease.
 */

export const leaseMs = () => config().UPLOAD_LEASE_S * 1000;

/** Claims that no longer hold their asset (null: claimed before leases existed). */
const lapsed = (now: number) => and(eq(assets.phase, "uploading"), or(isNull(assets.uploadLeaseUntil), lt(assets.uploadLeaseUntil, now)));

/** Takes a waiting asset, or one whose upload's lease lapsed, for the upload `claim`. */
export async function claimUpload(assetId: string, claim: string): Promise<AssetRow | undefined> {
  const now = Date.now();
  const [row] = await db()
    .update(assets)
    .set({ phase: "uploading", uploadClaim: claim, uploadLeaseUntil: now + leaseMs(), updatedAt: now })
    .where(and(eq(assets.id, assetId), isNull(assets.deletedAt), or(eq(assets.phase, "waiting"), lapsed(now))))
    .returning();
  return row;
}

/** Extends a live claim; false once it has lapsed or the asset was taken over or deleted. */
export async function renewUpload(assetId: string, claim: string): Promise<boolean> {
  const now = Date.now();
  const renewed = await db()
    .update(assets)
    .set({ uploadLeaseUntil: now + leaseMs() })
    .where(
      and(eq(assets.id, assetId), isNull(assets.deletedAt), eq(assets.phase, "uploading"), eq(assets.uploadClaim, claim), gte(assets.uploadLeaseUntil, now)),
    )
    .returning({ id: assets.id });
  return renewed.length > 0;
}

/** An upload that broke off: the asset waits for another try with the same URL. */
export async function releaseUpload(assetId: string, claim: string | null): Promise<void> {
  await db()
    .update(assets)
    .set({ phase: "waiting", uploadClaim: null, uploadLeaseUntil: null, updatedAt: Date.now() })
    .where(and(eq(assets.id, assetId), eq(assets.phase, "uploading"), claim === null ? isNull(assets.uploadClaim) : eq(assets.uploadClaim, claim)));
}

/** The claim's file is stored: the asset moves on to processing. False if the claim was lost. */
export async function finishUpload(assetId: string, claim: string, progress: number): Promise<boolean> {
  const done = await db()
    .update(assets)
    .set({ phase: "processing", progress, errorMessage: null, uploadClaim: null, uploadLeaseUntil: null, updatedAt: Date.now() })
    .where(and(eq(assets.id, assetId), eq(assets.phase, "uploading"), eq(assets.uploadClaim, claim)))
    .returning({ id: assets.id });
  return done.length > 0;
}

/** Uploads whose lease lapsed: their process died, or their client stalled or went away. */
export async function lapsedUploads(now = Date.now()): Promise<AssetRow[]> {
  return db().select().from(assets).where(lapsed(now));
}

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
    const stallCheck = setInterval(
      () => {
        if (!waitingSince || Date.now() - waitingSince < leaseMs()) return;
        stalled = true;
        reader.cancel().catch(() => {}); // ends the pending read
      },
      Math.min(1000, leaseMs() / 3),
    );
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
        this.failure = conflict(
          `this upload sent no data for more than ${config().UPLOAD_LEASE_S} s and lost the asset, or the asset was deleted: send the file again`,
        );
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
