import assert from "node:assert/strict";
import { test } from "node:test";
import { toPlayback } from "@/lib/client/playback";
import type { PlaybackInfo } from "@/lib/playback/schema";

const HLS = { hrn: "HLS (TS)", type: "html5/application/vnd.apple.mpegurl" } as const;
const live = { ...HLS, url: "https://castline.example/hls/abc/index.m3u8" };
const replay = { ...HLS, url: "https://castline.example/recordings/s1/index.m3u8?tkn=t" };

test("a stream between broadcasts offers the replay of its last one, when the playback info carries it", () => {
  const ended: PlaybackInfo = { type: "live", meta: { live: 0, source: [], dvrPlayback: [replay] } };
  assert.deepEqual(toPlayback(ended), { status: "ended", type: "live", replay: replay.url });
  assert.deepEqual(toPlayback({ type: "live", meta: { live: 0, source: [] } }), { status: "offline", type: "live" }, "nothing recorded: offline");
});

test("a live stream plays live, whatever replay is offered beside it", () => {
  const info: PlaybackInfo = { type: "live", meta: { live: 1, source: [live], dvrPlayback: [replay] } };
  assert.deepEqual(toPlayback(info), { status: "ready", type: "live", live: true, src: live.url, format: "hls" });
});
