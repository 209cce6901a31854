import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { test } from "node:test";
import { HotFiles, ShortLived, TaggedCache } from "@/lib/delivery/cache";
import { fileReply, type ViewerRequest } from "@/lib/delivery/reply";
import { forgetShared, share, sharedAnswer, sharedGeneration } from "@/lib/delivery/shared";

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

test("the content cache keeps a value until a tag it was read from is announced, and shares one load", async () => {
  const cache = new TaggedCache({ ttlMs: 60_000, maxEntries: 100 });
  let loads = 0;
  const load = async () => ({ value: ++loads, tags: ["p:abc", "s:1"] });
  const [a, b] = await Promise.all([cache.get("stream:abc", load), cache.get("stream:abc", load)]);
  assert.deepEqual([a, b, loads], [1, 1, 1], "concurrent reads share one load");
  assert.equal(await cache.get("stream:abc", load), 1, "kept");
  cache.invalidate(["s:2", "a:1"]);
  assert.equal(await cache.get("stream:abc", load), 1, "another stream's change leaves it");
  cache.invalidate(["x:9", "s:1"]);
  assert.equal(await cache.get("stream:abc", load), 2, "its own change takes it");
  assert.deepEqual([cache.hits, cache.misses], [3, 2]);
});

test("a load that an announcement overtook serves no caller that came after the announcement, and is not kept", async () => {
  const cache = new TaggedCache({ ttlMs: 60_000, maxEntries: 100 });
  const before = deferred<{ value: string; tags: string[] }>();
  const first = cache.get("asset:p", () => before.promise);
  // The row changes (and is announced) while that read is under way: it may have read the old row.
  cache.invalidate(["p:unrelated"]);
  const second = cache.get("asset:p", async () => ({ value: "new", tags: ["p:p"] }));
  before.resolve({ value: "old", tags: ["p:p"] });
  assert.equal(await first, "old", "the caller from before the change gets what was read");
  assert.equal(await second, "new");
  assert.equal(await cache.get("asset:p", async () => ({ value: "newer", tags: ["p:p"] })), "new", "the fresh read is the one kept");
});

test("the content cache expires by its TTL, forgets failed loads and stays within its size", async () => {
  const cache = new TaggedCache({ ttlMs: 20, maxEntries: 3 });
  assert.equal(await cache.get("k", async () => ({ value: 1, tags: [] })), 1);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(await cache.get("k", async () => ({ value: 2, tags: [] })), 2, "expired");
  await assert.rejects(cache.get("bad", async () => Promise.reject(new Error("database down"))));
  assert.equal(await cache.get("bad", async () => ({ value: "back", tags: [] })), "back", "a failure is not kept");
  for (const key of ["a", "b", "c", "d"]) await cache.get(key, async () => ({ value: key, tags: [`t:${key}`] }));
  assert.ok(cache.size <= 3, `size ${cache.size}`);
  cache.clear();
  assert.equal(cache.size, 0);
});

test("a short-lived read is shared by everyone asking within its TTL, then read again", async () => {
  const playlists = new ShortLived<string>({ ttlMs: 30, maxEntries: 10 });
  let reads = 0;
  const read = async () => `#EXTM3U ${++reads}`;
  const answers = await Promise.all(Array.from({ length: 50 }, () => playlists.get("live/s/0/v0/index.m3u8", read)));
  assert.deepEqual(new Set(answers), new Set(["#EXTM3U 1"]));
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(await playlists.get("live/s/0/v0/index.m3u8", read), "#EXTM3U 2");
  await assert.rejects(playlists.get("gone", () => Promise.reject(new Error("no such object"))));
  assert.equal(await playlists.get("gone", async () => "there"), "there", "a failed read is not kept");
});

test("held files: one read for everyone asking, answered from memory within bytes; not-found and failed reads are not held", async () => {
  const info = (size: number) => ({ size, modifiedAt: new Date(0) });
  const held = new HotFiles<{ size: number; modifiedAt: Date }>({ ttlMs: 60_000, maxBytes: 1000, maxFileBytes: 600 });
  let stats = 0;
  let reads = 0;
  const stat = (size: number | undefined) => async () => (stats++, size === undefined ? undefined : info(size));
  const read = async (i: { size: number }) => (reads++, Buffer.alloc(i.size, 7));

  const answers = await Promise.all(Array.from({ length: 50 }, () => held.get("seg_1.ts", stat(400), read)));
  assert.equal(stats, 1, "concurrent asks share one stat");
  assert.equal(reads, 1, "and one read");
  assert.ok(answers.every((a) => a?.body?.length === 400));
  assert.equal(held.heldBytes, 400);

  // Over maxFileBytes: its info is held, not its bytes (the caller streams it).
  const large = await held.get("large.ts", stat(700), read);
  assert.equal(large?.body, undefined);
  assert.equal(large?.info.size, 700);
  assert.equal(reads, 1);

  // seg_2 comes, seg_1 is asked again, then seg_3 comes: the least recently asked (seg_2) goes.
  await held.get("seg_2.ts", stat(400), read);
  await held.get("seg_1.ts", stat(400), read);
  await held.get("seg_3.ts", stat(400), read);
  assert.ok(held.heldBytes <= 1000, `within its bytes (${held.heldBytes})`);
  const readsBefore = reads;
  await held.get("seg_1.ts", stat(400), read);
  await held.get("seg_3.ts", stat(400), read);
  assert.equal(reads, readsBefore, "seg_1 and seg_3 are still held");
  await held.get("seg_2.ts", stat(400), read);
  assert.equal(reads, readsBefore + 1, "seg_2 was evicted");

  assert.equal(await held.get("early.ts", stat(undefined), read), undefined);
  assert.equal((await held.get("early.ts", stat(100), read))?.body?.length, 100, "a file not found yet is asked for again");
  await assert.rejects(held.get("broken.ts", stat(100), () => Promise.reject(new Error("read failed"))));
  assert.equal((await held.get("broken.ts", stat(100), read))?.body?.length, 100, "a failed read is not held");
});

test("a file in memory answers ranges from it, as a stored one does", () => {
  const body = Buffer.from("0123456789");
  const file = fileReply(request({ range: "bytes=2-4" }), { size: 10, modifiedAt: new Date(0) }, body, "seg_1.ts", { cacheControl: "public" });
  assert.equal(file.status, 206);
  assert.equal(String(file.body), "234");
  assert.equal(file.open, undefined);
  assert.equal(String(fileReply(request(), { size: 10, modifiedAt: new Date(0) }, body, "seg_1.ts", { cacheControl: "public" }).body), "0123456789");
});

const request = (headers: Record<string, string> = {}, method = "GET"): ViewerRequest => ({
  method,
  path: "/x",
  query: new URLSearchParams(),
  headers: { get: (name) => headers[name] ?? null },
});

test("a stored file answers one byte range, 416 past its end, and 304 to a copy still current", async () => {
  const info = { size: 1000, modifiedAt: new Date("2026-11-26T10:00:00.500Z") };
  const open = async (r: { start: number; end: number }) => Readable.from([`${r.start}-${r.end}`]);
  const reply = (headers?: Record<string, string>, method?: string) => fileReply(request(headers, method), info, open, "seg_1.ts", { cacheControl: "public" });

  const whole = reply();
  assert.equal(whole.status, 200);
  assert.equal(whole.headers["content-type"], "video/mp2t");
  assert.equal(whole.headers["content-length"], "1000");
  const etag = whole.headers.etag;
  assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);

  const ranged = reply({ range: "bytes=100-199" });
  assert.equal(ranged.status, 206);
  assert.equal(ranged.headers["content-range"], "bytes 100-199/1000");
  assert.equal(ranged.headers["content-length"], "100");
  assert.equal(String((await (await ranged.open!()).toArray())[0]), "100-199");
  assert.equal(reply({ range: "bytes=-10" }).headers["content-range"], "bytes 990-999/1000");
  assert.equal(reply({ range: "bytes=990-5000" }).headers["content-range"], "bytes 990-999/1000");
  assert.equal(reply({ range: "bytes=1000-" }).status, 416);
  for (const odd of ["bytes=0-1,5-6", "items=0-1", "bytes=-", "bytes=abc", "bytes=99999999999999999999-"]) {
    assert.equal(reply({ range: odd }).status, 200, odd);
  }
  assert.equal(reply({ range: "bytes=0-9", "if-range": '"other"' }).status, 200, "If-Range of another version: the whole file");
  assert.equal(reply({ range: "bytes=0-9", "if-range": etag.slice(2) }).status, 206);

  assert.equal(reply({ "if-none-match": etag }).status, 304);
  assert.equal(reply({ "if-none-match": `"x", ${etag.slice(2)}` }).status, 304);
  assert.equal(reply({ "if-none-match": '"x"' }).status, 200);
  assert.equal(reply({ "if-modified-since": "Thu, 26 Nov 2026 10:00:00 GMT" }).status, 304);
  assert.equal(reply({ "if-modified-since": "Thu, 26 Nov 2026 09:59:59 GMT" }).status, 200);
  const head = reply({}, "HEAD");
  assert.equal(head.open, undefined, "HEAD: no body");
  assert.equal(head.headers["content-length"], "1000");
});

test("live viewers are counted by address and browser while they poll, and forgotten once they stop", async () => {
  const { countViewer, viewerCounts } = await import("@/lib/delivery/viewers");
  const viewer = (address: string, browser: string) => request({ "x-forwarded-for": address, "user-agent": browser });
  const t = 1_000_000;
  countViewer("s1", viewer("203.0.113.1", "Firefox"), t);
  countViewer("s1", viewer("203.0.113.1", "Firefox"), t + 2000);
  countViewer("s1", viewer("203.0.113.1", "Safari"), t + 2000);
  countViewer("s1", viewer("203.0.113.2", "Firefox"), t + 4000);
  countViewer("s2", viewer("203.0.113.2", "Firefox"), t + 4000);
  assert.deepEqual(
    viewerCounts(t + 5000),
    new Map([
      ["s1", 3],
      ["s2", 1],
    ]),
  );
  // 15 s without a poll: gone.
  assert.deepEqual(
    viewerCounts(t + 18_000),
    new Map([
      ["s1", 1],
      ["s2", 1],
    ]),
  );
  assert.deepEqual(viewerCounts(t + 30_000), new Map());

  // One connection (a proxy's, or a player's keep-alive) counts each viewer it carries.
  const connection = {};
  const onConnection = (address: string, browser: string): ViewerRequest => ({ ...viewer(address, browser), connection });
  for (const [address, browser] of [
    ["203.0.113.1", "Firefox"],
    ["203.0.113.1", "Firefox"],
    ["203.0.113.2", "Firefox"],
    ["203.0.113.2", "Safari"],
    ["203.0.113.1", "Firefox"],
  ]) {
    countViewer("s3", onConnection(address, browser), t + 40_000);
  }
  assert.deepEqual(viewerCounts(t + 41_000), new Map([["s3", 3]]));
});

test("a shared answer is given to its URL's plain requests until SHARED_MS or its admission's end, and no longer after a change", () => {
  const reply = (sharedUntil?: number) => ({ status: 200, headers: {}, body: "#EXTM3U\n", ...(sharedUntil ? { sharedUntil } : {}) });
  forgetShared(true);
  const now = 1_000_000;
  share("/hls/p/index.m3u8", reply(Infinity), now, sharedGeneration());
  assert.ok(sharedAnswer("/hls/p/index.m3u8", now + 10), "public: given again");
  assert.equal(sharedAnswer("/hls/p/index.m3u8?tkn=other", now + 10), undefined, "another URL is another answer");
  assert.equal(sharedAnswer("/hls/p/index.m3u8", now + 60), undefined, "not past SHARED_MS");

  share("/hls/p/a.m3u8?tkn=t", reply(now + 20), now, sharedGeneration());
  assert.ok(sharedAnswer("/hls/p/a.m3u8?tkn=t", now + 19), "gated, by the URL's token: given again while it lasts");
  assert.equal(sharedAnswer("/hls/p/a.m3u8?tkn=t", now + 21), undefined, "never after the token expired");

  share("/hls/p/b.m3u8", reply(), now, sharedGeneration());
  assert.equal(sharedAnswer("/hls/p/b.m3u8", now), undefined, "an answer made for one viewer is not shared");

  const begun = sharedGeneration();
  share("/hls/p/c.m3u8", reply(Infinity), now, begun);
  forgetShared();
  assert.equal(sharedAnswer("/hls/p/c.m3u8", now), undefined, "a change drops what was shared");
  share("/hls/p/c.m3u8", reply(Infinity), now, begun);
  assert.equal(sharedAnswer("/hls/p/c.m3u8", now), undefined, "an answer begun before a change is not kept");
  forgetShared(false);
});
