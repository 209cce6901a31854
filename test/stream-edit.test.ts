import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { operations } from "@/lib/api/operations";
import { newAccount, PROFILES } from "./support/client";
import { publish, rtmpUrl, streamActive as active, streamIdle as idle } from "./support/media";

const LADDER = [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }];

/** What an encoder's publish did within `ms`: exited (refused or cut) or still running. */
const exitedWithin = (running: ReturnType<typeof publish>, ms: number) =>
  Promise.race([running.exited.then(() => "exited" as const), new Promise<"still running">((r) => setTimeout(() => r("still running"), ms))]);

describe("editing a stream", { concurrency: false }, () => {
  test("PATCH name renames the stream (204), GET shows it", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "old name" })).body;
    const res = await api.call(operations.updateStream, { params: { id: stream.id }, body: { name: "  New name  " } });
    assert.equal(res.status, 204);
    const got = (await api.call(operations.getStream, { params: { id: stream.id } })).body;
    assert.equal(got.name, "New name");
    assert.equal(got.streamKey, stream.streamKey, "a rename keeps the key");
  });

  test("bad edits are 4xx, never 5xx, and change nothing", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "kept", profiles: PROFILES })).body;
    const bad: [string, unknown, number][] = [
      ["empty name", { name: "   " }, 422],
      ["number name", { name: 7 }, 422],
      ["unknown field", { name: "x", colour: "red" }, 422],
      ["streamKey is not writable", { streamKey: "mine" }, 422],
      ["profile named source", { profiles: [{ ...PROFILES[0], name: "source" }] }, 422],
      ["duplicate profile names", { profiles: [PROFILES[0], PROFILES[0]] }, 422],
      ["zero fps", { profiles: [{ ...PROFILES[0], fps: 0 }] }, 422],
      ["profiles not an array", { profiles: "720p" }, 422],
    ];
    for (const [why, body, status] of bad) {
      const res = await api.patch(`stream/${stream.id}`, body);
      assert.equal(res.status, status, why);
      assert.ok(res.body.errors.length >= 1, why);
    }
    const got = (await api.get(`stream/${stream.id}`)).body;
    assert.equal(got.name, "kept");
    assert.deepEqual(got.profiles, PROFILES);

    const other = await newAccount();
    assert.equal((await other.patch(`stream/${stream.id}`, { name: "theirs" })).status, 404, "another user's stream");
    assert.equal((await other.post(`stream/${stream.id}/rotate-key`)).status, 404, "another user's stream");
    assert.equal((await api.post("stream/nope/rotate-key")).status, 404);
    assert.equal((await api.get(`stream/${stream.id}`)).body.streamKey, stream.streamKey);
  });

  test("profiles cannot drop a rendition a multistream target sends (400)", async () => {
    const api = await newAccount();
    const target = (await api.post("multistream/target", { name: "yt", url: "rtmp://example.com/live/k" })).body;
    const stream = (await api.post("stream", { name: "m", profiles: PROFILES, multistream: { targets: [{ id: target.id, profile: PROFILES[0].name }] } })).body;
    const res = await api.patch(`stream/${stream.id}`, { profiles: LADDER });
    assert.equal(res.status, 400);
    assert.match(res.body.errors.join(" "), /not a rendition of this stream/);
  });

  test("profiles change while idle, are refused while live (409), and a broadcast uses the new ones", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "ladder", profiles: PROFILES })).body;
    assert.equal((await api.patch(`stream/${stream.id}`, { profiles: LADDER })).status, 204);
    assert.deepEqual((await api.get(`stream/${stream.id}`)).body.profiles, LADDER);

    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await active(api, stream.id);
      const [session] = (await api.get(`stream/${stream.id}/sessions`)).body;
      assert.deepEqual(session.profiles, LADDER, "the broadcast runs the ladder set while idle");
      const refused = await api.patch(`stream/${stream.id}`, { profiles: [] });
      assert.equal(refused.status, 409);
      assert.match(refused.body.errors.join(" "), /live/);
      assert.deepEqual((await api.get(`stream/${stream.id}`)).body.profiles, LADDER);
      assert.equal((await api.patch(`stream/${stream.id}`, { name: "renamed live" })).status, 204, "a rename is fine while live");
    } finally {
      await broadcaster.stop();
    }
    await idle(api, stream.id);
    assert.equal((await api.patch(`stream/${stream.id}`, { profiles: [] })).status, 204);
    const got = (await api.get(`stream/${stream.id}`)).body;
    assert.deepEqual(got.profiles, []);
    assert.equal(got.name, "renamed live");
  });

  test("rotating the key cuts a live broadcast, refuses the old key, and the new key works", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "rotate" })).body;
    const oldKey: string = stream.streamKey;
    const broadcaster = publish(rtmpUrl(oldKey));
    await active(api, stream.id);

    const t0 = Date.now();
    const rotated = await api.call(operations.rotateStreamKey, { params: { id: stream.id } });
    assert.equal(rotated.status, 200);
    const newKey = rotated.body.streamKey!;
    assert.ok(newKey && newKey !== oldKey);
    assert.equal(rotated.body.playbackId, stream.playbackId, "viewers keep the playback id");
    assert.equal((await api.get(`stream/${stream.id}`)).body.streamKey, newKey);

    assert.equal(await exitedWithin(broadcaster, 5000), "exited", "the broadcast on the old key is cut");
    const cutAfter = Date.now() - t0;
    assert.ok(cutAfter < 2500, `cut after ${cutAfter} ms`);
    await idle(api, stream.id);

    const again = publish(rtmpUrl(oldKey));
    const outcome = await exitedWithin(again, 8000);
    await again.stop();
    assert.equal(outcome, "exited", "a publish with the old key is refused");
    assert.equal((await api.get(`stream/${stream.id}`)).body.isActive, false);

    const fresh = publish(rtmpUrl(newKey));
    try {
      await active(api, stream.id);
      await new Promise((r) => setTimeout(r, 2500));
      assert.equal(fresh.proc.exitCode, null, "a broadcast on the new key is not cut");
      assert.equal((await api.get(`stream/${stream.id}`)).body.isActive, true);
    } finally {
      await fresh.stop();
    }
    await idle(api, stream.id);
    console.log(`key rotation cut the live broadcast after ${cutAfter} ms`);
  });
});
