import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq, sql } from "drizzle-orm";
import { assets, tasks } from "@/db/schema";
import { createAsset, writeAssetChange } from "@/lib/assets/service";
import { spawnTask, updateTask, writeTaskChange } from "@/lib/tasks/service";
import { createUser } from "@/lib/users/service";
import { until } from "../support/media";
import { db } from "../support/db";

/**
 * A task's or an asset's phase written by two processes at once, on the real database: an upload
 * marking its task running while the job that inspects the file fails asset and task together.
 * The failure commits between the other write's read and its update; the update must not undo it
 * (it once did: the asset read failed and its task running, for ever).
 */

/** Runs `write` in a transaction that stays open (its row locks held) until the returned `commit`. */
async function heldOpen(write: Parameters<ReturnType<typeof db>["transaction"]>[0]) {
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  let written!: () => void;
  const done = new Promise<void>((resolve) => (written = resolve));
  const transaction = db().transaction(async (tx) => {
    await write(tx);
    written();
    await committed;
  });
  await done;
  return { commit: async () => (commit(), await transaction) };
}

/** Until another connection's update waits on a row lock: it has read, and now it waits. */
const waitingOnLock = () =>
  until(
    "an update waiting on the row lock",
    async () => {
      const rows = await db().execute(sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'update %'`);
      return rows.length > 0 || undefined;
    },
    30_000,
    20,
  );

async function account() {
  return createUser({ email: `races-${Date.now()}-${Math.random()}@example.com` });
}

describe("phases written at once", () => {
  test("a task failed meanwhile is not put back to running", async () => {
    const user = await account();
    const task = await spawnTask({ userId: user.id, type: "upload", params: {} });
    const failing = await heldOpen(async (tx) => {
      await writeTaskChange(tx, task.id, { phase: "failed", errorMessage: "No video stream" });
    });
    const running = updateTask(task.id, { phase: "running", progress: 0.1 });
    await waitingOnLock();
    await failing.commit();
    await running;
    const row = await db().query.tasks.findFirst({ where: eq(tasks.id, task.id) });
    assert.equal(row?.phase, "failed");
    assert.equal(row?.errorMessage, "No video stream");
  });

  test("an asset failed meanwhile is not made ready by a write allowed only from processing", async () => {
    const user = await account();
    const asset = await createAsset(user.id, { name: "races", source: { type: "directUpload" }, phase: "processing" });
    const failing = await heldOpen(async (tx) => {
      await writeAssetChange(tx, asset.id, { phase: "failed", errorMessage: "Cannot be decoded" }, ["processing"]);
    });
    const ready = writeAssetChange(db(), asset.id, { phase: "ready", progress: 1 }, ["processing"]);
    await waitingOnLock();
    await failing.commit();
    assert.equal(await ready, undefined, "the second write says it changed nothing");
    const row = await db().query.assets.findFirst({ where: eq(assets.id, asset.id) });
    assert.equal(row?.phase, "failed");
    assert.equal(row?.errorMessage, "Cannot be decoded");
  });
});
