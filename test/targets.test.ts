import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newAccount } from "./support/client";

describe("multistream targets", () => {
  test("POST validates the url, defaults the name to the host and echoes the url once", async () => {
    const api = await newAccount();
    const res = await api.post("multistream/target", { url: "rtmp://live.example.com:1935/app/secret-key" });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, "live.example.com:1935");
    assert.equal(res.body.url, "rtmp://live.example.com:1935/app/secret-key");
    assert.equal(res.body.disabled, false);
    assert.ok(res.body.userId);
    for (const path of [`multistream/target/${res.body.id}`]) assert.equal((await api.get(path)).body.url, undefined);
    assert.equal((await api.get("multistream/target")).body[0].url, undefined);

    const named = await api.post("multistream/target", { url: "srt://srt.example.com:9000?streamid=x", name: "My SRT" });
    assert.equal(named.status, 201);
    assert.equal(named.body.name, "My SRT");

    for (const url of [undefined, "", "http://example.com/live", "ftp://x", "rtmp://", "not a url", 42]) {
      const bad = await api.post("multistream/target", { url });
      assert.equal(bad.status, 422, String(url));
    }
  });

  test("PATCH changes given fields only; the url stays write-only", async () => {
    const api = await newAccount();
    const t = (await api.post("multistream/target", { url: "rtmp://a.example.com/live/k", name: "A" })).body;
    assert.equal((await api.patch(`multistream/target/${t.id}`, { disabled: true })).status, 204);
    let now = (await api.get(`multistream/target/${t.id}`)).body;
    assert.equal(now.disabled, true);
    assert.equal(now.name, "A");
    assert.equal((await api.patch(`multistream/target/${t.id}`, { url: "rtmps://b.example.com/live/k2", name: "B" })).status, 204);
    now = (await api.get(`multistream/target/${t.id}`)).body;
    assert.equal(now.name, "B");
    assert.equal(now.disabled, true);
    assert.equal(now.url, undefined);
    assert.equal((await api.patch(`multistream/target/${t.id}`, { url: "http://nope" })).status, 422);
    assert.equal((await api.patch(`multistream/target/${t.id}`, {})).status, 204);
    assert.equal((await api.patch("multistream/target/unknown", { name: "x" })).status, 404);
  });

  test("list pages with a Link header", async () => {
    const api = await newAccount();
    for (let i = 0; i < 3; i++) await api.post("multistream/target", { url: `rtmp://h${i}.example.com/live/k` });
    const first = await api.get("multistream/target?limit=2");
    assert.equal(first.body.length, 2);
    const next = /<\/api\/([^>]+)>; rel="next"/.exec(first.headers.get("link")!)![1];
    const second = await api.get(next);
    assert.equal(second.body.length, 1);
    assert.equal(second.headers.get("link"), null);
    const cursor = new URLSearchParams(next.split("?")[1]).get("cursor");
    assert.deepEqual((await api.get(`multistream/target?limit=2&cursor=${cursor}`)).body, second.body);
  });

  test("DELETE refuses a target a stream still uses, then works once it is detached", async () => {
    const api = await newAccount();
    const t = (await api.post("multistream/target", { url: "rtmp://a.example.com/live/k" })).body;
    const s = (await api.post("stream", { name: "uses it", multistream: { targets: [{ id: t.id, profile: "source" }] } })).body;
    const refused = await api.delete(`multistream/target/${t.id}`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0], /still used by stream "uses it"/);
    assert.equal((await api.get(`multistream/target/${t.id}`)).status, 200);
    await api.patch(`stream/${s.id}`, { multistream: { targets: [] } });
    assert.equal((await api.delete(`multistream/target/${t.id}`)).status, 204);
    assert.equal((await api.get(`multistream/target/${t.id}`)).status, 404);
  });
});
