import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newAccount } from "./support/client";
import { startSession } from "./support/db";

describe("tenant isolation", () => {
  test("another user's objects answer 404 exactly like unknown ids, and never show in lists", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const stream = (await a.post("stream", { name: "a's stream" })).body;
    const session = await startSession(stream.id);
    const target = (await a.post("multistream/target", { url: "rtmp://a.example.com/live/k" })).body;
    const webhook = (await a.post("webhook", { name: "a", url: "https://a.example.com", events: ["stream.idle"] })).body;

    const unknown = "00000000-0000-0000-0000-000000000000";
    const probes: [string, string, unknown?][] = [
      ["GET", `stream/ID`],
      ["PATCH", `stream/ID`, { suspended: true }],
      ["PATCH", `stream/ID/record`, { record: true }],
      ["DELETE", `stream/ID`],
      ["GET", `stream/ID/sessions`],
      ["GET", `multistream/target/ID`],
      ["PATCH", `multistream/target/ID`, { name: "mine now" }],
      ["DELETE", `multistream/target/ID`],
      ["GET", `webhook/ID`],
      ["PUT", `webhook/ID`, { name: "x", url: "https://b.example.com", events: ["stream.idle"] }],
      ["DELETE", `webhook/ID`],
    ];
    const idFor = (path: string) => (path.startsWith("stream") ? stream.id : path.startsWith("multistream") ? target.id : webhook.id);
    for (const [method, path, body] of probes) {
      const foreign = await b.send(method, path.replace("ID", idFor(path)), { body });
      const missing = await b.send(method, path.replace("ID", unknown), { body });
      assert.equal(foreign.status, 404, `${method} ${path}`);
      assert.deepEqual(foreign.body, missing.body, `${method} ${path} reveals nothing`);
    }
    assert.equal((await b.get(`session/${session.id}`)).status, 404);
    assert.equal((await b.get(`stream/${session.id}`)).status, 404);

    for (const list of ["stream", "session", "multistream/target", "webhook", "asset", "task"]) {
      assert.deepEqual((await b.get(list)).body, [], list);
    }
    const still = (await a.get(`stream/${stream.id}`)).body;
    assert.equal(still.suspended, false);
    assert.equal((await a.get(`multistream/target/${target.id}`)).body.name, "a.example.com");
    assert.equal((await a.get(`webhook/${webhook.id}`)).status, 200);
  });
});
