import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { test } from "node:test";
import { isOverloaded, nodeState, OVERLOADED_CPU_LOAD, rankForIngest, type MediaNodeRow } from "@/lib/live/nodes";
import { Fenced } from "@/media-node/app-client";
import { HlsShipper } from "@/media-node/shipper";

const LOST_AFTER_MS = 10_000;
const NOW = 1_000_000;
const node = (id: string, over: Partial<MediaNodeRow> = {}): MediaNodeRow => ({
  id,
  ingestUrl: `rtmp://${id}:1935/live`,
  rtmpPort: 1935,
  webrtcUrl: null,
  cores: 4,
  cpuLoad: 0.2,
  liveSessions: 0,
  laggingSessions: 0,
  overloaded: false,
  machine: null,
  startedAt: 0,
  lastHeartbeatAt: NOW - 1000,
  lostAt: null,
  ...over,
});

test("encoders are sent to the least loaded healthy node: CPU first, then sessions per core", () => {
  const ranked = rankForIngest(
    [
      node("busy", { cpuLoad: 0.9 }),
      node("silent", { cpuLoad: 0, lastHeartbeatAt: NOW - LOST_AFTER_MS - 1 }),
      node("declared-lost", { cpuLoad: 0, lostAt: NOW - 5000 }),
      node("crowded", { liveSessions: 8 }),
      node("big", { liveSessions: 8, cores: 16 }),
      node("idle"),
    ],
    NOW,
    LOST_AFTER_MS,
  );
  assert.deepEqual(
    ranked.map((n) => n.id),
    ["idle", "big", "crowded", "busy"],
  );
});

test("an overloaded node gets encoders only when no node is healthy", () => {
  const overloaded = node("overloaded", { cpuLoad: 0.1, overloaded: true });
  const ranked = rankForIngest([overloaded, node("busy", { cpuLoad: 0.9 })], NOW, LOST_AFTER_MS);
  assert.deepEqual(
    ranked.map((n) => n.id),
    ["busy"],
  );
  const onlyBusy = rankForIngest([node("worse", { cpuLoad: 5, overloaded: true }), overloaded, node("gone", { lostAt: NOW })], NOW, LOST_AFTER_MS);
  assert.deepEqual(
    onlyBusy.map((n) => n.id),
    ["overloaded", "worse"],
    "a busy node is better than none",
  );
});

test("a node is overloaded when a broadcast on it fell behind, or its run queue is twice its cores; lost wins", () => {
  assert.equal(isOverloaded({ cpuLoad: 0.3, laggingSessions: 1 }), true);
  assert.equal(isOverloaded({ cpuLoad: OVERLOADED_CPU_LOAD, laggingSessions: 0 }), true);
  assert.equal(isOverloaded({ cpuLoad: 22.72, laggingSessions: 0 }), true, "the issue's 2272 %");
  assert.equal(isOverloaded({ cpuLoad: 1.2, laggingSessions: 0 }), false);
  assert.equal(nodeState(node("a", { overloaded: true }), NOW, LOST_AFTER_MS), "overloaded");
  assert.equal(nodeState(node("a", { overloaded: true, lostAt: NOW }), NOW, LOST_AFTER_MS), "lost");
});

test("a node is lost once silent for the timeout or declared lost, even if it speaks again before the sweep clears it", () => {
  assert.equal(nodeState(node("a", { lastHeartbeatAt: NOW - LOST_AFTER_MS }), NOW, LOST_AFTER_MS), "healthy");
  assert.equal(nodeState(node("a", { lastHeartbeatAt: NOW - LOST_AFTER_MS - 1 }), NOW, LOST_AFTER_MS), "lost");
  assert.equal(nodeState(node("a", { lostAt: NOW }), NOW, LOST_AFTER_MS), "lost");
});

/** A store that keeps what it is given, in order. */
function memoryStore() {
  const writes: { key: string; body: string }[] = [];
  return {
    writes,
    async write(key: string, body: Readable) {
      const s = await text(body);
      writes.push({ key, body: s });
      return s.length;
    },
    async removePrefix() {},
  };
}

function hlsFolder(segments: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-shipper-"));
  const names = Array.from({ length: segments }, (_, i) => `seg_0000${i}.ts`);
  for (const n of names) fs.writeFileSync(path.join(dir, n), `bytes of ${n}`);
  const playlist = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", ...names.flatMap((n) => ["#EXTINF:2.000000,", n])].join("\n") + "\n";
  fs.writeFileSync(path.join(dir, "index.m3u8"), playlist);
  return { dir, names };
}

test("a shipper stores each segment before the playlist that names it", async () => {
  const { dir, names } = hlsFolder(2);
  const store = memoryStore();
  const shipper = new HlsShipper(dir, { store, playlist: "index.m3u8", keyOf: (n) => `live/s/1/v0/${n}`, shipPlaylist: true, removeShipped: false });
  shipper.start();
  await shipper.finish();
  assert.deepEqual(
    store.writes.map((w) => w.key),
    [...names, "index.m3u8"].map((n) => `live/s/1/v0/${n}`),
  );
  assert.equal(store.writes[0].body, "bytes of seg_00000.ts");
  assert.ok(shipper.live);
  fs.rmSync(dir, { recursive: true });
});

test("a segment whose report is refused (the node was fenced off) is neither counted nor removed, and the refusal surfaces", async () => {
  const { dir, names } = hlsFolder(1);
  const store = memoryStore();
  const shipper = new HlsShipper(dir, {
    store,
    playlist: "index.m3u8",
    keyOf: (n) => `recordings/s/1/${n}`,
    shipPlaylist: false,
    removeShipped: true,
    onSegment: () => {
      throw new Fenced("session s (epoch 1) is no longer this node's");
    },
  });
  shipper.start();
  await assert.rejects(shipper.finish(), Fenced);
  assert.equal(shipper.segments, 0);
  assert.ok(fs.existsSync(path.join(dir, names[0])), "kept for a retry");
  fs.rmSync(dir, { recursive: true });
});
