import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newAccount } from "./support/client";

const hook = { name: "My receiver", url: "https://example.com/hooks", events: ["stream.started", "stream.idle"] };

describe("webhooks", () => {
  test("POST creates a webhook (200) with a signing secret shown once", async () => {
    const api = await newAccount();
    const res = await api.post("webhook", hook);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, "webhook");
    assert.equal(res.body.name, hook.name);
    assert.equal(res.body.url, hook.url);
    assert.deepEqual(res.body.events, hook.events);
    assert.ok(res.body.sharedSecret.length >= 30);
    assert.ok(res.body.userId && res.body.createdAt);
    const one = await api.get(`webhook/${res.body.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.sharedSecret, undefined);
    const { sharedSecret, ...rest } = res.body;
    assert.ok(sharedSecret);
    assert.deepEqual(one.body, rest);
    assert.deepEqual((await api.get("webhook")).body, [rest]);
  });

  test("events must be known names, the url http(s)", async () => {
    const api = await newAccount();
    const bad: [string, unknown][] = [
      ["unknown event", { ...hook, events: ["stream.exploded"] }],
      ["no events", { ...hook, events: [] }],
      ["events not array", { ...hook, events: "stream.started" }],
      ["ftp url", { ...hook, url: "ftp://example.com" }],
      ["relative url", { ...hook, url: "/hooks" }],
      ["missing name", { url: hook.url, events: hook.events }],
      ["extra field", { ...hook, secret: "mine" }],
    ];
    for (const [why, body] of bad) assert.equal((await api.post("webhook", body)).status, 422, why);
    const msg = (await api.post("webhook", { ...hook, events: ["nope"] })).body.errors[0];
    assert.match(msg, /stream\.started/, "the error lists the known events");
    const later = await api.post("webhook", { ...hook, events: ["asset.ready", "task.failed", "recording.ready"] });
    assert.equal(later.status, 200, "asset and task events are known too");
    assert.equal((await api.get("webhook")).body.length, 1);
  });

  test("PUT replaces, DELETE answers the deleted webhook (200) then 404", async () => {
    const api = await newAccount();
    const created = (await api.post("webhook", hook)).body;
    const put = await api.put(`webhook/${created.id}`, { name: "Renamed", url: "http://example.org/x", events: ["recording.ready"] });
    assert.equal(put.status, 200);
    assert.equal(put.body.name, "Renamed");
    assert.deepEqual(put.body.events, ["recording.ready"]);
    assert.equal((await api.put(`webhook/${created.id}`, { name: "only a name" })).status, 422);
    assert.equal((await api.get(`webhook/${created.id}`)).body.url, "http://example.org/x");
    const del = await api.delete(`webhook/${created.id}`);
    assert.equal(del.status, 200);
    assert.equal(del.body.id, created.id);
    assert.equal((await api.get(`webhook/${created.id}`)).status, 404);
    assert.equal((await api.delete(`webhook/${created.id}`)).status, 404);
    assert.equal((await api.put(`webhook/${created.id}`, hook)).status, 404);
  });
});
