import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assets, tasks } from "@/db/schema";
import { newAccount } from "./support/client";
import { db } from "./support/db";

/** Assets and tasks are created by the VOD pipeline (a later issue); here rows are inserted directly. */
async function insertAssetWithTask(userId: string, name: string, createdAt: number) {
  const assetId = randomUUID();
  await db()
    .insert(assets)
    .values({
      id: assetId,
      userId,
      name,
      playbackId: randomUUID().slice(0, 16),
      phase: "ready",
      updatedAt: createdAt,
      size: 1234,
      hash: [{ hash: "abc", algorithm: "md5" }],
      source: { type: "url", url: "https://example.com/v.mp4" },
      createdAt,
    });
  const taskId = randomUUID();
  await db()
    .insert(tasks)
    .values({
      id: taskId,
      userId,
      type: "import",
      outputAssetId: assetId,
      params: { import: { url: "https://example.com/v.mp4" } },
      phase: "completed",
      updatedAt: createdAt,
      createdAt,
    });
  return { assetId, taskId };
}

describe("assets and tasks (read side)", () => {
  test("list, get and delete assets; list tasks most recent first", async () => {
    const [api, other] = await Promise.all([newAccount(), newAccount()]);
    const userId = (await api.get("user/me")).body.id;
    const t0 = Date.now();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await insertAssetWithTask(userId, `video ${i}`, t0 + i));

    const list = await api.get("asset?limit=2");
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((a: { name: string }) => a.name),
      ["video 2", "video 1"],
    );
    assert.match(list.headers.get("link")!, /rel="next"/);
    const a = (await api.get(`asset/${made[0].assetId}`)).body;
    assert.equal(a.status.phase, "ready");
    assert.equal(a.size, 1234);
    assert.deepEqual(a.hash, [{ hash: "abc", algorithm: "md5" }]);
    assert.equal(a.videoSpec, undefined, "absent fields are omitted, not null");

    const taskList = (await api.get("task")).body;
    assert.deepEqual(
      taskList.map((t: { id: string }) => t.id),
      made.map((m) => m.taskId).reverse(),
    );
    const task = (await api.get(`task/${made[1].taskId}`)).body;
    assert.equal(task.type, "import");
    assert.equal(task.status.phase, "completed");
    assert.equal(task.outputAssetId, made[1].assetId);
    assert.deepEqual(task.params, { import: { url: "https://example.com/v.mp4" } });

    assert.equal((await other.get(`asset/${made[0].assetId}`)).status, 404);
    assert.equal((await other.delete(`asset/${made[0].assetId}`)).status, 404);
    assert.equal((await other.get(`task/${made[0].taskId}`)).status, 404);
    assert.equal((await other.get("asset")).body.length, 0);
    assert.equal((await other.get("task")).body.length, 0);

    assert.equal((await api.delete(`asset/${made[0].assetId}`)).status, 204);
    assert.equal((await api.get(`asset/${made[0].assetId}`)).status, 404);
    assert.equal((await api.delete(`asset/${made[0].assetId}`)).status, 404);
    assert.equal((await api.get("asset")).body.length, 2);
  });
});
