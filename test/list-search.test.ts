import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { assets, sessions, streams, tasks } from "@/db/schema";
import type { AssetSource } from "@/lib/assets/schema";
import { newAccount, type Api } from "./support/client";
import { db, startSession } from "./support/db";

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** Every item of a list, following its Link header page by page. */
async function walk(api: Api, path: string): Promise<{ id: string; name: string; [k: string]: unknown }[]> {
  const seen = [];
  let next: string | undefined = path;
  while (next) {
    const res = await api.get(next);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    seen.push(...res.body);
    const link = res.headers.get("link");
    next = link ? /<\/api\/([^>]+)>; rel="next"/.exec(link)![1] : undefined;
  }
  return seen;
}

describe("finding things in lists", () => {
  test("streams: name search reaches every page, live/idle/recording filters, sort by last seen paged without gaps", async () => {
    const api = await newAccount();
    const names = ["Cat show", "Morning CATS", "Dog show", "100% live", "100 live", "news_room", "newsXroom"];
    const created: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      created[name] = (await api.post("stream", { name, record: name.includes("show") })).body.id;
      // distinct creation times, so that the creation order is the order of this list
      await db()
        .update(streams)
        .set({ createdAt: 1_000 + i })
        .where(eq(streams.id, created[name]));
    }
    // Broadcast history the live pipeline writes: two seen at the same time (ties break by id), one live.
    const seenAt = { "Cat show": 5_000, "Dog show": 9_000, "100% live": 7_000, "100 live": 7_000 } as Record<string, number>;
    for (const [name, at] of Object.entries(seenAt)) await db().update(streams).set({ lastSeen: at }).where(eq(streams.id, created[name]));
    await db().update(streams).set({ isActive: true }).where(eq(streams.id, created["Dog show"]));

    const list = (query: string) => walk(api, `stream?streamsonly=1&limit=2&${query}`);
    const sorted = (items: { name: string }[]) => items.map((s) => s.name).sort();
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "name", value: "cat" }])}`)), ["Cat show", "Morning CATS"]);
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "name", value: "  SHOW " }])}`)), ["Cat show", "Dog show"]);
    // LIKE's wildcards in a search match themselves
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "name", value: "100%" }])}`)), ["100% live"]);
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "name", value: "s_r" }])}`)), ["news_room"]);
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "name", value: "nothing like it" }])}`)), []);
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "isActive", value: true }])}`)), ["Dog show"]);
    assert.equal((await list(`filters=${q([{ id: "isActive", value: false }])}`)).length, names.length - 1);
    assert.deepEqual(
      sorted(
        await list(
          `filters=${q([
            { id: "record", value: true },
            { id: "name", value: "cat" },
          ])}`,
        ),
      ),
      ["Cat show"],
    );
    assert.deepEqual(sorted(await list(`filters=${q([{ id: "lastSeen", value: { gt: 5_000, lt: 9_000 } }])}`)), ["100 live", "100% live"]);

    // last seen, most recent first: never-seen streams last, ties by id; every stream once over pages of 2
    const bySeen = await list("order=lastSeen-true");
    const tie = [created["100% live"], created["100 live"]].sort().reverse();
    const neverSeen = names
      .filter((n) => !(n in seenAt))
      .map((n) => created[n])
      .sort()
      .reverse();
    assert.deepEqual(
      bySeen.map((s) => s.id),
      [created["Dog show"], ...tie, created["Cat show"], ...neverSeen],
    );
    assert.deepEqual(
      (await list("order=lastSeen-false")).map((s) => s.id),
      bySeen.map((s) => s.id).reverse(),
    );
    assert.deepEqual(
      (await list("order=createdAt-false")).map((s) => s.name),
      names,
      "oldest first",
    );
    assert.deepEqual(
      (await list("order=createdAt-true")).map((s) => s.name),
      [...names].reverse(),
    );
    assert.deepEqual(
      (await list(`order=lastSeen-true&filters=${q([{ id: "name", value: "live" }])}`)).map((s) => s.id),
      tie,
      "search and sort together",
    );
  });

  test("streams with their session objects merge in the order asked for, and search reaches sessions", async () => {
    const api = await newAccount();
    const a = (await api.post("stream", { name: "alpha" })).body;
    const b = (await api.post("stream", { name: "beta" })).body;
    const sa = await startSession(a.id);
    const sb = await startSession(b.id);
    // ended broadcasts: a session left active without a media node would be ended meanwhile, moving its last seen
    await db().update(sessions).set({ lastSeen: 20, isActive: false, endedAt: 20 }).where(eq(sessions.id, sa.id));
    await db().update(sessions).set({ lastSeen: 30, isActive: false, endedAt: 30 }).where(eq(sessions.id, sb.id));
    await db().update(streams).set({ lastSeen: 10 }).where(eq(streams.id, a.id));
    await db().update(streams).set({ lastSeen: 40 }).where(eq(streams.id, b.id));
    const all = await walk(api, "stream?limit=1&order=lastSeen-true");
    assert.deepEqual(
      all.map((s) => s.id),
      [b.id, sb.id, sa.id, a.id],
    );
    assert.deepEqual(
      (await walk(api, "stream?limit=1&order=lastSeen-false")).map((s) => s.id),
      [a.id, sa.id, sb.id, b.id],
    );
    const alpha = await walk(api, `stream?limit=1&filters=${q([{ id: "name", value: "ALP" }])}`);
    assert.deepEqual(alpha.map((s) => s.id).sort(), [a.id, sa.id].sort());
  });

  test("assets: search by name, filter by phase, source type, duration and creation, sort by duration", async () => {
    const api = await newAccount();
    const userId = (await api.get("user/me")).body.id;
    const rows: { name: string; phase: string; source: AssetSource; duration?: number; createdAt: number }[] = [
      { name: "Holiday clip", phase: "ready", source: { type: "url", url: "https://example.com/a.mp4" }, duration: 30, createdAt: 1_000 },
      { name: "holiday long", phase: "ready", source: { type: "directUpload" }, duration: 600, createdAt: 2_000 },
      { name: "Broken upload", phase: "failed", source: { type: "directUpload" }, duration: undefined, createdAt: 3_000 },
      { name: "Show recording", phase: "processing", source: { type: "recording", sessionId: "s" }, duration: 120, createdAt: 4_000 },
      { name: "Short", phase: "ready", source: { type: "url", url: "https://example.com/b.mp4" }, duration: 30, createdAt: 5_000 },
    ];
    const ids: Record<string, string> = {};
    for (const r of rows) {
      ids[r.name] = randomUUID();
      await db()
        .insert(assets)
        .values({
          id: ids[r.name],
          userId,
          name: r.name,
          playbackId: randomUUID().slice(0, 16),
          phase: r.phase,
          updatedAt: r.createdAt,
          source: r.source,
          videoSpec: r.duration === undefined ? null : { format: "mp4", duration: r.duration, tracks: [] },
          createdAt: r.createdAt,
        });
    }
    const list = (query: string) => walk(api, `asset?limit=2&${query}`);
    const named = async (filters: unknown) => (await list(`filters=${q(filters)}`)).map((a) => a.name).sort();
    assert.deepEqual(await named([{ id: "name", value: "holiday" }]), ["Holiday clip", "holiday long"]);
    assert.deepEqual(await named([{ id: "status.phase", value: "ready" }]), ["Holiday clip", "Short", "holiday long"]);
    assert.deepEqual(await named([{ id: "source.type", value: "directUpload" }]), ["Broken upload", "holiday long"]);
    assert.deepEqual(await named([{ id: "videoSpec.duration", value: { gt: 60 } }]), ["Show recording", "holiday long"]);
    assert.deepEqual(await named([{ id: "videoSpec.duration", value: { lt: 60 } }]), ["Holiday clip", "Short"], "unknown duration matches no range");
    assert.deepEqual(await named([{ id: "createdAt", value: { gt: 1_000, lt: 4_000 } }]), ["Broken upload", "holiday long"]);
    assert.deepEqual(
      await named([
        { id: "status.phase", value: "ready" },
        { id: "source.type", value: "url" },
        { id: "name", value: "sho" },
      ]),
      ["Short"],
    );

    const longest = (await list("order=videoSpec.duration-true")).map((a) => a.id);
    const thirty = [ids["Holiday clip"], ids.Short].sort().reverse();
    assert.deepEqual(longest, [ids["holiday long"], ids["Show recording"], ...thirty, ids["Broken upload"]]);
    assert.deepEqual(
      (await list("order=videoSpec.duration-false")).map((a) => a.id),
      [...longest].reverse(),
    );
    assert.deepEqual(
      (await list("order=createdAt-false")).map((a) => a.name),
      rows.map((r) => r.name),
    );
  });

  test("tasks: filter by type and phase, oldest first on request", async () => {
    const api = await newAccount();
    const userId = (await api.get("user/me")).body.id;
    const specs = [
      ["import", "completed"],
      ["export", "failed"],
      ["import", "failed"],
      ["clip", "running"],
    ] as const;
    const ids = specs.map(() => randomUUID());
    await db()
      .insert(tasks)
      .values(specs.map(([type, phase], i) => ({ id: ids[i], userId, type, phase, params: {}, updatedAt: i + 1, createdAt: i + 1 })));
    const list = async (query: string) => (await walk(api, `task?limit=1&${query}`)).map((t) => t.id);
    assert.deepEqual(await list(`filters=${q([{ id: "type", value: "import" }])}`), [ids[2], ids[0]]);
    assert.deepEqual(await list(`filters=${q([{ id: "status.phase", value: "failed" }])}`), [ids[2], ids[1]]);
    assert.deepEqual(
      await list(
        `filters=${q([
          { id: "type", value: "import" },
          { id: "status.phase", value: "failed" },
        ])}`,
      ),
      [ids[2]],
    );
    assert.deepEqual(await list("order=createdAt-false"), ids);
  });

  test("bad search, filter, sort and cursor parameters are 4xx, never 5xx", async () => {
    const api = await newAccount();
    for (let i = 0; i < 3; i++) await api.post("stream", { name: `s${i}` });
    const first = await api.get("stream?limit=1&order=lastSeen-true");
    const lastSeenCursor = /cursor=([^&>]+)/.exec(first.headers.get("link")!)![1];
    const newestCursor = /cursor=([^&>]+)/.exec((await api.get("stream?limit=1")).headers.get("link")!)![1];
    const bad: [string, number][] = [
      ["stream?order=name-true", 422],
      ["stream?order=lastSeen", 422],
      ["stream?order=lastSeen-maybe", 422],
      [`stream?filters=${q([{ id: "name", value: "" }])}`, 422],
      [`stream?filters=${q([{ id: "name", value: "   " }])}`, 422],
      [`stream?filters=${q([{ id: "name", value: 5 }])}`, 422],
      [`stream?filters=${q([{ id: "name", value: "x".repeat(201) }])}`, 422],
      [`stream?filters=${q([{ id: "lastSeen", value: { gt: "soon" } }])}`, 422],
      [`stream?filters=${q([{ id: "lastSeen", value: { after: 1 } }])}`, 422],
      [`stream?filters=${q({ id: "name", value: "x" })}`, 422],
      [`stream?order=createdAt-true&cursor=${lastSeenCursor}`, 400],
      [`stream?order=lastSeen-true&cursor=${newestCursor}`, 400],
      [`stream?order=lastSeen-true&cursor=${Buffer.from('["lastSeen",true,"1; drop table streams","x"]').toString("base64url")}`, 400],
      [`asset?filters=${q([{ id: "status.phase", value: "sleeping" }])}`, 422],
      [`asset?filters=${q([{ id: "source.type", value: "ftp" }])}`, 422],
      [`asset?filters=${q([{ id: "videoSpec.duration", value: 5 }])}`, 422],
      ["asset?order=lastSeen-true", 422],
      [`asset?order=videoSpec.duration-true&cursor=${newestCursor}`, 400],
      [`task?filters=${q([{ id: "type", value: "dance" }])}`, 422],
      [`task?filters=${q([{ id: "name", value: "x" }])}`, 422],
      ["task?order=createdAt-sideways", 422],
    ];
    for (const [path, status] of bad) {
      const res = await api.get(path);
      assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.errors?.length >= 1, path);
    }
    // the cursor of a sorted list works with its own order
    assert.equal((await api.get(`stream?limit=1&order=lastSeen-true&cursor=${lastSeenCursor}`)).status, 200);
  });
});
