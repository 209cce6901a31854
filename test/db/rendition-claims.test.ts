import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { assetRenditions, transcodeChunks } from "@/db/schema";
import { claimChunk, finishChunk, finishedUnpublished } from "@/lib/assets/processing/renditions";
import { createAsset } from "@/lib/assets/service";
import { createUser } from "@/lib/users/service";
import { db } from "../support/db";

/**
 * The chunk claims of a ladder (lib/assets/processing/renditions.ts) when a job is killed at the worst
 * moments, on the real database: the jobs of the other renditions of its chunk have already
 * ended, seeing the chunk taken, so only a retry of the killed job can finish what it held.
 */
const LADDER = ["720p", "480p", "360p"];
const SEGMENT = [{ file: "c0000_0.ts", duration: 4, size: 1000 }];

async function ladder(chunks: number) {
  const user = await createUser({ email: `claims-${Date.now()}-${Math.random()}@example.com` });
  const asset = await createAsset(user.id, { name: "claims", source: { type: "directUpload" }, phase: "ready" });
  await db()
    .insert(assetRenditions)
    .values(
      LADDER.map((name, position) => ({
        assetId: asset.id,
        name,
        position,
        width: 640,
        height: 360,
        bitrate: 800_000,
        fps: 30,
        chunks,
        phase: "transcoding",
        updatedAt: Date.now(),
      })),
    );
  await db()
    .insert(transcodeChunks)
    .values(
      LADDER.flatMap((rendition) => Array.from({ length: chunks }, (_, index) => ({ assetId: asset.id, rendition, index, start: index * 4, duration: 4 }))),
    );
  return asset.id;
}

const claimedBy = async (assetId: string, index: number) =>
  Object.fromEntries(
    (
      await db()
        .select()
        .from(transcodeChunks)
        .where(and(eq(transcodeChunks.assetId, assetId), eq(transcodeChunks.index, index)))
    ).map((c) => [c.rendition, c.claimedBy]),
  );

describe("rendition chunk claims", () => {
  test("a job killed after finishing its own rendition of a chunk: its retry does the renditions it held", async () => {
    const assetId = await ladder(2);
    const job = (rendition: string) => ({ assetId, rendition, index: 0 });
    // The 720p job takes chunk 0 for the whole ladder; the others' jobs find it taken and end.
    const batch = await claimChunk(job("720p"), "event-720");
    assert.deepEqual(batch?.renditions.map((r) => r.name).sort(), [...LADDER].sort());
    assert.equal(await claimChunk(job("480p"), "event-480"), undefined);
    assert.equal(await claimChunk(job("360p"), "event-360"), undefined);
    // It records 720p, then dies before 480p and 360p.
    assert.equal(await finishChunk(job("720p"), SEGMENT, "worker-a"), false);
    // Its retry keeps 480p and 360p (nobody else will do them), not 720p (done).
    const retry = await claimChunk(job("720p"), "event-720");
    assert.deepEqual(retry?.renditions.map((r) => r.name).sort(), ["360p", "480p"]);
    assert.equal(retry?.chunk.index, 0);
    assert.deepEqual(await claimedBy(assetId, 0), { "720p": "event-720", "480p": "event-720", "360p": "event-720" });
  });

  test("a job killed between finishing a rendition's last chunk and publishing it: its retry publishes it", async () => {
    const assetId = await ladder(1);
    const job = { assetId, rendition: "720p", index: 0 };
    assert.deepEqual(await finishedUnpublished(job, "event-720"), [], "a first attempt has nothing to publish");
    await claimChunk(job, "event-720");
    for (const rendition of LADDER) assert.equal(await finishChunk({ ...job, rendition }, SEGMENT, "worker-a"), true);
    // Killed here. The retry claims nothing more, and is told what to publish.
    assert.equal(await claimChunk(job, "event-720"), undefined);
    assert.deepEqual((await finishedUnpublished(job, "event-720")).sort(), [...LADDER].sort());
    // Another job's id is not told: it did none of it.
    assert.deepEqual(await finishedUnpublished({ ...job, rendition: "480p" }, "event-480"), []);
  });

  test("a job whose rendition another job took does not keep the rest", async () => {
    const assetId = await ladder(1);
    await db()
      .update(transcodeChunks)
      .set({ claimedBy: "event-other" })
      .where(and(eq(transcodeChunks.assetId, assetId), eq(transcodeChunks.rendition, "720p")));
    assert.equal(await claimChunk({ assetId, rendition: "720p", index: 0 }, "event-720"), undefined);
    assert.deepEqual(await claimedBy(assetId, 0), { "720p": "event-other", "480p": null, "360p": null });
  });
});
