import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { BASE, newAccount, type Api } from "./support/client";
import { publish, rtmpUrl, streamActive, until } from "./support/media";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * The delivery plane run on its own (`npm run edge`, the app's environment): it serves what the
 * app serves to viewers, byte for byte, and nothing else; it learns of changes made through the
 * app (a policy edit, a takedown) within a second, without a database read per request; and its
 * live playlists follow the live edge.
 */
const tmp = tmpDir();
let edge: AppProcess;
let api: Api;
let asset: { id: string; playbackId: string };

before(async () => {
  edge = await startAppProcess({ ...process.env, EDGE_PORT: "0", HOST: "127.0.0.1" }, { script: "scripts/edge.ts", log: "edge.log" });
  api = await newAccount();
  const file = await makeMedia(tmp, "mp4", { seconds: 4, size: "320x180" });
  const requested = await api.post("asset/request-upload", { name: "edge" });
  assert.equal((await putFile(requested.body.url, file)).status, 200);
  asset = requested.body.asset;
  assert.equal((await settled(api, asset.id)).status.phase, "ready");
});
after(async () => {
  await edge?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const bytes = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
};

/** How long after `since` the condition first held, polled every 25 ms (a deadline of 30 s: a failure, not a wait). */
async function heldAfter(since: number, what: string, fn: () => Promise<boolean>): Promise<number> {
  await until(what, async () => (await fn()) || undefined, 30_000, 25);
  return Date.now() - since;
}

describe("the delivery edge", () => {
  test("serves an asset's playlists, segments and files as the app does, and nothing else", async () => {
    const master = (await (await fetch(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8`)).text()).split("\n");
    const media = master.find((l) => l.endsWith(".m3u8"))!;
    const segment = (await (await fetch(`${BASE}/asset/${asset.playbackId}/hls/${media}`)).text()).split("\n").find((l) => l.endsWith(".ts"))!;
    const paths = ["hls/index.m3u8", `hls/${media}`, `hls/${path.dirname(media)}/${segment}`, "video", "thumbnail.jpg", "hls/nothing.m3u8"].map(
      (p) => `/asset/${asset.playbackId}/${p}`,
    );
    for (const p of paths) {
      const [fromApp, fromEdge] = await Promise.all([bytes(BASE + p), bytes(edge.url + p)]);
      assert.equal(fromEdge.status, fromApp.status, p);
      assert.equal(fromEdge.type, fromApp.type, p);
      assert.ok(fromEdge.body.equals(fromApp.body), `${p}: the same bytes`);
    }
    const ranged = await fetch(`${edge.url}/asset/${asset.playbackId}/video`, { headers: { range: "bytes=10-19" } });
    assert.equal(ranged.status, 206);
    assert.equal((await ranged.arrayBuffer()).byteLength, 10);

    for (const p of ["/api/stream", "/", "/streams", `/play/${asset.playbackId}`]) {
      const res = await fetch(edge.url + p);
      assert.equal(res.status, 404, p);
      assert.match((await res.json()).errors[0], /delivery edge/);
    }
    assert.equal((await fetch(`${edge.url}/asset/${asset.playbackId}/hls/index.m3u8`, { method: "POST" })).status, 405);
  });

  test("a policy edit and a takedown made through the app hold on the edge within a second", async () => {
    const url = `${edge.url}/asset/${asset.playbackId}/hls/index.m3u8`;
    const status = async () => (await bytes(url)).status;
    assert.equal(await status(), 200);
    assert.equal(await status(), 200, "served again (from its memory)");

    let since = Date.now();
    assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy: { type: "jwt" } })).status, 200);
    const gated = await heldAfter(since, "the edge to refuse without a token", async () => (await status()) === 401);
    since = Date.now();
    assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy: { type: "public" } })).status, 200);
    const opened = await heldAfter(since, "the edge to serve it again", async () => (await status()) === 200);
    since = Date.now();
    assert.equal((await api.delete(`asset/${asset.id}?purge=true`)).status, 204);
    const gone = await heldAfter(since, "the edge to stop serving it", async () => (await status()) === 404);
    console.log(`the edge followed: gated after ${gated} ms, public again after ${opened} ms, taken down after ${gone} ms`);
    for (const ms of [gated, opened, gone]) assert.ok(ms < 1000, `${ms} ms`);
  });

  test("a live media playlist on the edge follows the live edge, and the stream counts its viewers on every instance", async () => {
    const stream = (await api.post("stream", { name: "edge live", profiles: [] })).body;
    const encoder = publish(rtmpUrl(stream.streamKey), { size: "320x180", seconds: 60 });
    try {
      await streamActive(api, stream.id);
      const master = await until(
        "the live master playlist",
        async () => {
          const res = await fetch(`${edge.url}/hls/${stream.playbackId}/index.m3u8`, { headers: { "user-agent": "Chrome" } });
          return res.ok ? res.text() : undefined;
        },
        60_000,
      );
      const mediaPath = master.split("\n").find((l) => l.endsWith(".m3u8"))!;
      // The store's own copy, where the media node writes it: what the app has, the moment it has it.
      const [sessionId, epoch, variant] = mediaPath.split("/");
      const stored = path.join(process.env.DATA_DIR!, "objects", "live", sessionId, epoch, variant, "index.m3u8");
      const segmentsOf = (text: string) => text.split("\n").filter((l) => l.endsWith(".ts"));
      const firstSeen = { store: new Map<string, number>(), edge: new Map<string, number>() };
      // Two more viewers (other browsers) watch through the app itself.
      let watching = true;
      const others = ["Firefox", "Safari"].map(async (browser) => {
        while (watching) {
          await fetch(`${BASE}/hls/${stream.playbackId}/${mediaPath}`, { headers: { "user-agent": browser } }).then((r) => r.arrayBuffer());
          await new Promise((r) => setTimeout(r, 1000));
        }
      });
      let mostViewers = 0;
      const deadline = Date.now() + 14_000;
      while (Date.now() < deadline) {
        const [inStore, onEdge, info] = await Promise.all([
          fs.promises.readFile(stored, "utf8").catch(() => ""),
          fetch(`${edge.url}/hls/${stream.playbackId}/${mediaPath}`, { headers: { "user-agent": "Chrome" } }).then((r) => r.text()),
          api.get(`stream/${stream.id}`),
        ]);
        const now = Date.now();
        for (const s of segmentsOf(inStore)) if (!firstSeen.store.has(s)) firstSeen.store.set(s, now);
        for (const s of segmentsOf(onEdge)) if (!firstSeen.edge.has(s)) firstSeen.edge.set(s, now);
        mostViewers = Math.max(mostViewers, info.body.viewerCount ?? 0);
        await new Promise((r) => setTimeout(r, 25));
      }
      watching = false;
      await Promise.all(others);
      // The segments that arrived while both were watched (not the ones already there at the start).
      const lags = [...firstSeen.store]
        .filter(([s, at]) => at > [...firstSeen.store.values()][0] && firstSeen.edge.has(s))
        .map(([s, at]) => firstSeen.edge.get(s)! - at);
      console.log(`new segments on the edge after the store had them (ms): ${lags.join(", ")}`);
      assert.ok(lags.length >= 3, `saw ${lags.length} new segments`);
      const sorted = [...lags].sort((a, b) => a - b);
      assert.ok(sorted[Math.floor(sorted.length / 2)] <= 500, `median ${sorted[Math.floor(sorted.length / 2)]} ms`);
      assert.ok(sorted.at(-1)! <= 1000, `slowest ${sorted.at(-1)} ms`);

      // The playlist polled every 25 ms was mostly given again without its handler; a segment
      // fetched twice was read from the store once, and is the store's bytes.
      const newest = segmentsOf(await (await fetch(`${edge.url}/hls/${stream.playbackId}/${mediaPath}`)).text()).at(-1)!;
      const segmentUrl = `${edge.url}/hls/${stream.playbackId}/${sessionId}/${epoch}/${variant}/${newest}`;
      const lookups = async () => {
        const text = await (await fetch(`${edge.url}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
        const figure = (cache: string, result: string) =>
          Number(new RegExp(`castline_delivery_cache_lookups\\{cache="${cache}",result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
        return { shared: figure("shared-answers", "hit"), segmentHits: figure("live-segments", "hit") };
      };
      const before = await lookups();
      const [first, second] = [await bytes(segmentUrl), await bytes(segmentUrl, { headers: { range: "bytes=0-99" } })];
      assert.equal(first.status, 200);
      assert.ok(first.body.equals(fs.readFileSync(path.join(path.dirname(stored), newest))), "the segment is the store's bytes");
      assert.ok(second.body.equals(first.body.subarray(0, 100)), "a range of it too");
      const afterwards = await lookups();
      assert.ok(afterwards.segmentHits >= before.segmentHits + 1, `the segment was answered from memory (${JSON.stringify({ before, afterwards })})`);
      assert.ok(afterwards.shared > 0, "polls of the public playlist were given shared answers");

      // One viewer on the edge, two on the app: the stream says three, then none once they left.
      assert.equal(mostViewers, 3);
      await until("the viewers to be gone", async () => (await api.get(`stream/${stream.id}`)).body.viewerCount === 0, 60_000, 500);
    } finally {
      await encoder.stop();
    }
  });
});
