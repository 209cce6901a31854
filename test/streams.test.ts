import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { operations } from "@/lib/api/operations";
import { newAccount, PROFILES } from "./support/client";

describe("streams", () => {
  test("POST /stream creates a stream with keys and defaults (201)", async () => {
    const api = await newAccount();
    // typed calls: each answer is parsed with the operation's public schema
    const res = await api.call(operations.createStream, { body: { name: "My show", profiles: PROFILES } });
    assert.equal(res.status, 201);
    const s = res.body;
    assert.ok(s.id && s.streamKey && s.playbackId);
    assert.equal(s.name, "My show");
    assert.equal(s.userId, (await api.call(operations.getMe)).body.id);
    assert.ok(Math.abs(s.createdAt - Date.now()) < 60_000);
    assert.equal(s.isActive, false);
    assert.equal(s.record, false);
    assert.equal(s.suspended, false);
    assert.deepEqual(s.multistream, { targets: [] });
    assert.deepEqual(s.profiles, PROFILES);
    for (const c of ["sourceSegments", "transcodedSegments", "sourceSegmentsDuration", "transcodedSegmentsDuration"] as const) {
      assert.equal(s[c], 0, c);
    }
    assert.equal(s.parentId, undefined);
    assert.deepEqual((await api.call(operations.getStream, { params: { id: s.id } })).body, s);
    assert.deepEqual((await api.call(operations.listStreams, { query: { streamsonly: "1" } })).body, [s]);
  });

  test("a stream created without profiles has none", async () => {
    const api = await newAccount();
    const res = await api.post("stream", { name: "source only" });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.profiles, []);
  });

  test("profiles and names are validated (422)", async () => {
    const api = await newAccount();
    const bad: [string, unknown][] = [
      ["missing name", {}],
      ["empty name", { name: "  " }],
      ["number name", { name: 5 }],
      ["unknown field", { name: "x", colour: "red" }],
      ["profile named source", { name: "x", profiles: [{ ...PROFILES[0], name: "source" }] }],
      ["duplicate profile names", { name: "x", profiles: [PROFILES[0], { ...PROFILES[1], name: "720p" }] }],
      ["negative width", { name: "x", profiles: [{ ...PROFILES[0], width: -1 }] }],
      ["zero fps", { name: "x", profiles: [{ ...PROFILES[0], fps: 0 }] }],
      ["fractional bitrate", { name: "x", profiles: [{ ...PROFILES[0], bitrate: 1.5 }] }],
      ["missing height", { name: "x", profiles: [{ name: "a", width: 10, bitrate: 10, fps: 10 }] }],
      ["profiles not an array", { name: "x", profiles: {} }],
    ];
    for (const [why, body] of bad) {
      const res = await api.post("stream", body);
      assert.equal(res.status, 422, why);
      assert.ok(res.body.errors.length >= 1, why);
    }
    const dup = await api.post("stream", { name: "x", profiles: [PROFILES[0], { ...PROFILES[1], name: "720p" }] });
    assert.match(dup.body.errors.join(" "), /duplicate profile name "720p"/);
    assert.equal((await api.get("stream")).body.length, 0, "nothing was created");
  });

  test("list pages with limit and cursor and a Link header", async () => {
    const api = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post("stream", { name: `s${i}` })).body.id);
    const seen: string[] = [];
    let path: string | undefined = "stream?limit=2";
    let pages = 0;
    while (path) {
      const res = await api.get(path);
      assert.equal(res.status, 200);
      assert.ok(res.body.length <= 2);
      seen.push(...res.body.map((s: { id: string }) => s.id));
      const link = res.headers.get("link");
      path = link ? /<\/api\/([^>]+)>; rel="next"/.exec(link)![1] : undefined;
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse(), "newest first, each once");
    assert.equal((await api.get("stream?limit=0")).status, 422);
    assert.equal((await api.get("stream?limit=abc")).status, 422);
    assert.equal((await api.get("stream?cursor=garbage")).status, 400);
  });

  test("filters select active and recorded streams", async () => {
    const api = await newAccount();
    const plain = (await api.post("stream", { name: "plain" })).body;
    const recorded = (await api.post("stream", { name: "rec", record: true })).body;
    const f = (filters: unknown) => api.get(`stream?streamsonly=1&filters=${encodeURIComponent(JSON.stringify(filters))}`);
    const names = (res: { body: { name: string }[] }) => res.body.map((s) => s.name).sort();
    assert.deepEqual(names(await f([{ id: "record", value: true }])), ["rec"]);
    assert.deepEqual(names(await f([{ id: "record", value: false }])), ["plain"]);
    assert.deepEqual(names(await f([{ id: "isActive", value: false }])), ["plain", "rec"]);
    assert.deepEqual(names(await f([{ id: "isActive", value: true }])), []);
    assert.deepEqual(
      names(
        await f([
          { id: "isActive", value: "false" },
          { id: "record", value: true },
        ]),
      ),
      ["rec"],
    );
    assert.equal((await f([{ id: "colour", value: 1 }])).status, 422);
    assert.equal((await api.get("stream?filters=%5Bnot-json")).status, 422);
    assert.ok(plain.id && recorded.id);
  });

  test("PATCH updates record, suspended and targets; omitted fields are kept; [] clears", async () => {
    const api = await newAccount();
    const s = (await api.post("stream", { name: "patch me", profiles: PROFILES })).body;
    const t1 = (await api.post("multistream/target", { url: "rtmp://a.example.com/live/k1" })).body;
    const t2 = (await api.post("multistream/target", { url: "rtmps://b.example.com/live/k2" })).body;

    assert.equal((await api.patch(`stream/${s.id}`, { record: true })).status, 204);
    let now = (await api.get(`stream/${s.id}`)).body;
    assert.equal(now.record, true);
    assert.equal(now.suspended, false);

    const targets = [
      { id: t1.id, profile: "720p" },
      { id: t2.id, profile: "source", videoOnly: true },
    ];
    assert.equal((await api.patch(`stream/${s.id}`, { suspended: true, multistream: { targets } })).status, 204);
    now = (await api.get(`stream/${s.id}`)).body;
    assert.equal(now.record, true, "omitted record kept");
    assert.equal(now.suspended, true);
    assert.deepEqual(now.multistream.targets, targets);

    assert.equal((await api.patch(`stream/${s.id}`, { suspended: false })).status, 204);
    now = (await api.get(`stream/${s.id}`)).body;
    assert.deepEqual(now.multistream.targets, targets, "omitted targets kept");

    assert.equal((await api.patch(`stream/${s.id}`, { multistream: { targets: [] } })).status, 204);
    assert.deepEqual((await api.get(`stream/${s.id}`)).body.multistream.targets, []);
  });

  test("PATCH refuses unknown, foreign and duplicate targets and unknown renditions (400), changing nothing", async () => {
    const [api, other] = await Promise.all([newAccount(), newAccount()]);
    const s = (await api.post("stream", { name: "x", profiles: PROFILES })).body;
    const mine = (await api.post("multistream/target", { url: "rtmp://a.example.com/live/k" })).body;
    const theirs = (await other.post("multistream/target", { url: "rtmp://b.example.com/live/k" })).body;
    const cases: [string, unknown][] = [
      ["unknown target", [{ id: "00000000-0000-0000-0000-000000000000", profile: "source" }]],
      ["foreign target", [{ id: theirs.id, profile: "source" }]],
      [
        "duplicate target",
        [
          { id: mine.id, profile: "source" },
          { id: mine.id, profile: "720p" },
        ],
      ],
      ["unknown rendition", [{ id: mine.id, profile: "1080p" }]],
    ];
    for (const [why, targets] of cases) {
      const res = await api.patch(`stream/${s.id}`, { record: true, multistream: { targets } });
      assert.equal(res.status, 400, why);
      assert.ok(res.body.errors[0].length > 10, why);
    }
    const after = (await api.get(`stream/${s.id}`)).body;
    assert.equal(after.record, false, "a refused PATCH changes nothing");
    assert.deepEqual(after.multistream.targets, []);
    assert.equal((await api.patch(`stream/${s.id}`, { playbackId: "mine" })).status, 422, "the playback id is not mutable");
    assert.equal((await api.patch(`stream/${s.id}`, { record: "yes" })).status, 422);
  });

  test("PATCH /stream/{id}/record", async () => {
    const api = await newAccount();
    const s = (await api.post("stream", { name: "x" })).body;
    assert.equal((await api.patch(`stream/${s.id}/record`, { record: true })).status, 204);
    assert.equal((await api.get(`stream/${s.id}`)).body.record, true);
    assert.equal((await api.patch(`stream/${s.id}/record`, {})).status, 422);
    assert.equal((await api.patch(`stream/nope/record`, { record: true })).status, 404);
  });

  test("DELETE answers 204, then the stream is gone everywhere", async () => {
    const api = await newAccount();
    const s = (await api.post("stream", { name: "doomed" })).body;
    assert.equal((await api.delete(`stream/${s.id}`)).status, 204);
    assert.equal((await api.get(`stream/${s.id}`)).status, 404);
    assert.equal((await api.patch(`stream/${s.id}`, { record: true })).status, 404);
    assert.equal((await api.delete(`stream/${s.id}`)).status, 404);
    assert.equal((await api.get("stream")).body.length, 0);
  });
});
