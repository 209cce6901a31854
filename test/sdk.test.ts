import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Livepeer } from "livepeer";
import { Events } from "livepeer/models/components";
import { BASE, newAccount, PROFILES } from "./support/client";
import { startSession } from "./support/db";

/** The official livepeer SDK (3.5.0) validates status codes and response shapes: it must accept ours. */
describe("livepeer SDK compatibility", () => {
  test("streams, sessions and multistream targets", async () => {
    const api = await newAccount();
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });

    const created = await sdk.stream.create({ name: "sdk stream", profiles: PROFILES });
    assert.equal(created.statusCode, 201);
    const stream = created.stream!;
    assert.equal(stream.name, "sdk stream");
    assert.ok(stream.streamKey);

    const target = (await sdk.multistream.create({ url: "rtmp://live.example.com/app/key", name: "yt" })).multistreamTarget!;
    assert.equal(target.name, "yt");
    assert.equal((await sdk.multistream.get(target.id!)).multistreamTarget!.name, "yt");
    assert.equal((await sdk.multistream.getAll()).data!.length, 1);
    assert.equal((await sdk.multistream.update({ url: "rtmp://live.example.com/app/key2", disabled: true }, target.id!)).statusCode, 204);

    const patched = await sdk.stream.update({ record: true, multistream: { targets: [{ id: target.id!, profile: "720p" }] } }, stream.id!);
    assert.equal(patched.statusCode, 204);
    const got = (await sdk.stream.get(stream.id!)).stream!;
    assert.equal(got.record, true);
    assert.equal(got.multistream!.targets![0].id, target.id);

    const session = await startSession(stream.id!);
    const sessions = (await sdk.session.getAll()).data!;
    assert.equal(sessions[0].id, session.id);
    assert.equal((await sdk.session.get(session.id)).session!.parentId, stream.id);
    assert.equal((await sdk.session.getRecorded(stream.id!)).data!.length, 1);
    assert.equal((await sdk.stream.getAll()).data!.length, 2, "parent and child object");
    assert.equal((await sdk.stream.getAll("1")).data!.length, 1);

    await sdk.stream.update({ multistream: { targets: [] } }, stream.id!);
    assert.equal((await sdk.multistream.delete(target.id!)).statusCode, 204);
    assert.equal((await sdk.stream.delete(stream.id!)).statusCode, 204);
    await assert.rejects(sdk.stream.get(stream.id!), (err: { statusCode?: number }) => err.statusCode === 404);
  });

  test("webhooks, assets and tasks", async () => {
    const api = await newAccount();
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const hook = (await sdk.webhook.create({ name: "h", url: "https://example.com/h", events: [Events.StreamStarted] })).webhook!;
    assert.equal(hook.name, "h");
    assert.equal((await sdk.webhook.get(hook.id!)).webhook!.url, "https://example.com/h");
    assert.equal((await sdk.webhook.getAll()).data!.length, 1);
    const updated = (await sdk.webhook.update({ name: "h2", url: "https://example.com/h2", events: [Events.StreamIdle] }, hook.id!)).webhook!;
    assert.equal(updated.name, "h2");
    assert.deepEqual((await sdk.webhook.getLogs(hook.id!)).data, []);
    assert.equal((await sdk.webhook.delete(hook.id!)).statusCode, 200);
    assert.deepEqual((await sdk.asset.getAll()).data, []);
    assert.deepEqual((await sdk.task.getAll()).data, []);

    const imported = await sdk.asset.createViaUrl({ name: "sdk import", url: "https://example.invalid/video.mp4" });
    assert.equal(imported.statusCode, 201);
    const asset = imported.twoHundredAndOneApplicationJsonData?.asset;
    assert.equal(asset!.name, "sdk import");
    assert.equal((await sdk.asset.get(asset!.id)).asset!.source.type, "url");
    assert.equal((await sdk.asset.getAll()).data!.length, 1);
    assert.equal((await sdk.asset.delete(asset!.id)).statusCode, 204);
  });
});
