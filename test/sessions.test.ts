import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { sessions } from "@/db/schema";
import { BASE, newAccount, PROFILES } from "./support/client";
import { db, startSession } from "./support/db";

describe("sessions", () => {
  test("a session inherits record and profiles and is listed under /session and /stream/{id}/sessions", async () => {
    const api = await newAccount();
    const s = (await api.post("stream", { name: "show", profiles: PROFILES, record: true })).body;
    const row = await startSession(s.id);

    const one = await api.get(`session/${row.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.parentId, s.id);
    assert.equal(one.body.name, "show");
    assert.equal(one.body.record, true);
    assert.deepEqual(one.body.profiles, PROFILES);
    assert.equal(one.body.sourceSegmentsDuration, 0);

    assert.deepEqual(
      (await api.get("session")).body.map((x: { id: string }) => x.id),
      [row.id],
    );
    assert.deepEqual(
      (await api.get(`stream/${s.id}/sessions`)).body.map((x: { id: string }) => x.id),
      [row.id],
    );
  });

  test("record=1 lists recorded sessions only, with their recording urls", async () => {
    const api = await newAccount();
    const s = (await api.post("stream", { name: "show" })).body;
    const unrecorded = await startSession(s.id);
    await api.patch(`stream/${s.id}/record`, { record: true });
    const recorded = await startSession(s.id);
    await db().update(sessions).set({ recordingStatus: "ready" }).where(eq(sessions.id, recorded.id));

    const all = (await api.get(`stream/${s.id}/sessions`)).body;
    assert.deepEqual(
      all.map((x: { id: string }) => x.id),
      [recorded.id, unrecorded.id],
    );
    const onlyRecorded = (await api.get(`stream/${s.id}/sessions?record=1`)).body;
    assert.equal(onlyRecorded.length, 1);
    assert.equal(onlyRecorded[0].recordingStatus, "ready");
    assert.equal(onlyRecorded[0].recordingUrl, `${BASE}/recordings/${recorded.id}/index.m3u8`);
    assert.equal(onlyRecorded[0].mp4Url, `${BASE}/recordings/${recorded.id}/video.mp4`);
  });

  test("historic child stream objects appear in /stream unless streamsonly=1, and are read-only", async () => {
    const api = await newAccount();
    const s = (await api.post("stream", { name: "parent" })).body;
    const session = await startSession(s.id);

    const all = (await api.get("stream")).body;
    assert.deepEqual(
      all.map((x: { id: string }) => x.id),
      [session.id, s.id],
    );
    const child = all[0];
    assert.equal(child.parentId, s.id);
    assert.equal(child.streamKey, undefined, "a child object never carries the key");
    assert.deepEqual((await api.get(`stream/${session.id}`)).body, child);

    const parentsOnly = (await api.get("stream?streamsonly=1")).body;
    assert.deepEqual(
      parentsOnly.map((x: { id: string }) => x.id),
      [s.id],
    );

    const rec = await api.patch(`stream/${session.id}/record`, { record: true });
    assert.equal(rec.status, 400);
    assert.match(rec.body.errors[0], /session/);
    assert.equal((await api.patch(`stream/${session.id}`, { record: true })).status, 400);
  });

  test("pagination merges parents and children newest first", async () => {
    const api = await newAccount();
    const expected: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = (await api.post("stream", { name: `s${i}` })).body;
      expected.push(s.id);
      expected.push((await startSession(s.id)).id);
    }
    const seen: string[] = [];
    let path: string | undefined = "stream?limit=4";
    while (path) {
      const res = await api.get(path);
      seen.push(...res.body.map((x: { id: string }) => x.id));
      const link = res.headers.get("link");
      path = link ? /<\/api\/([^>]+)>/.exec(link)![1] : undefined;
    }
    assert.deepEqual(seen, expected.reverse());
  });

  test("sessions of another user or of a deleted stream are 404", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const s = (await a.post("stream", { name: "a" })).body;
    const session = await startSession(s.id);
    assert.equal((await b.get(`session/${session.id}`)).status, 404);
    assert.equal((await b.get(`stream/${s.id}/sessions`)).status, 404);
    assert.equal((await b.get("session")).body.length, 0);
    await a.delete(`stream/${s.id}`);
    assert.equal((await a.get(`session/${session.id}`)).status, 404);
    assert.equal((await a.get("session")).body.length, 0);
  });
});
