import assert from "node:assert/strict";
import { test } from "node:test";
import { BitrateMeter } from "@/media-node/bitrate-meter";

/** Video at 30 fps and AAC audio (1024 samples at 48 kHz), interleaved as RTMP sends them, from `fromMs` for `seconds`. */
function feed(meter: BitrateMeter, videoKbps: number, audioKbps: number, seconds: number, fromMs = 0) {
  const packets: [number, number][] = [];
  for (let t = 0; t < seconds * 1000; t += 1000 / 30) packets.push([Math.round(fromMs + t), (videoKbps * 1000) / 8 / 30]);
  for (let t = 0; t < seconds * 1000; t += (1024 / 48000) * 1000) packets.push([Math.round(fromMs + t), (audioKbps * 1000) / 8 / (48000 / 1024)]);
  for (const [dts, bytes] of packets.sort((a, b) => a[0] - b[0])) meter.packet(dts, bytes);
}

test("bitrate is what the media carries per second of its own time, however it arrives", () => {
  const meter = new BitrateMeter();
  assert.equal(meter.kbps, undefined, "no packets, no reading");
  feed(meter, 2000, 128, 12);
  assert.ok(Math.abs(meter.kbps! - 2128) < 25, String(meter.kbps));
  // The last window only: a drop to 500 kbps shows within five seconds of media.
  feed(meter, 500, 128, 6, 12_000);
  assert.ok(Math.abs(meter.kbps! - 628) < 15, String(meter.kbps));
});

test("a publisher that restarts its clock is measured afresh", () => {
  const meter = new BitrateMeter();
  feed(meter, 4000, 128, 6, 100_000);
  feed(meter, 1000, 0, 3, 0);
  assert.ok(Math.abs(meter.kbps! - 1000) < 15, String(meter.kbps));
});
