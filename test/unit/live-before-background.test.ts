import assert from "node:assert/strict";
import { test } from "node:test";
import { flvMediaTime } from "@/media-node/feed";
import { backgroundTranscodeSlots, machineId } from "@/lib/av/machine";

test("background transcodes: all the configured slots on a machine without broadcasts, half while live, one while a broadcast is behind", () => {
  assert.equal(backgroundTranscodeSlots(4, { sessions: 0, lagging: 0 }), 4);
  assert.equal(backgroundTranscodeSlots(4, { sessions: 3, lagging: 0 }), 2);
  assert.equal(backgroundTranscodeSlots(2, { sessions: 1, lagging: 0 }), 1);
  assert.equal(backgroundTranscodeSlots(1, { sessions: 1, lagging: 0 }), 1, "never none: background work still moves");
  assert.equal(backgroundTranscodeSlots(8, { sessions: 2, lagging: 1 }), 1);
});

test("the machine is named by the kernel's boot id (shared by containers on one host), the same every time", () => {
  assert.match(machineId(), /^[0-9a-f-]{36}$/);
  assert.equal(machineId(), machineId());
});

/** An FLV tag as node-media-server sends it: 11 header bytes, the data, the previous tag size. */
function tag(type: number, timestampMs: number, data: number[]): Buffer {
  const b = Buffer.alloc(11 + data.length + 4);
  b[0] = type;
  b.writeUIntBE(data.length, 1, 3);
  b[4] = (timestampMs >> 16) & 0xff;
  b[5] = (timestampMs >> 8) & 0xff;
  b[6] = timestampMs & 0xff;
  b[7] = (timestampMs >> 24) & 0xff;
  Buffer.from(data).copy(b, 11);
  return b;
}

test("the broadcast's clock is read from its audio and video frames, never from codec headers or script data", () => {
  assert.equal(flvMediaTime(tag(9, 123_456, [0x17, 1, 0, 0, 0])), 123_456, "an AVC keyframe");
  assert.equal(flvMediaTime(tag(9, 0x1234_5678, [0x27, 1, 0, 0, 0])), 0x1234_5678, "timestamps past 24 bits");
  assert.equal(flvMediaTime(tag(8, 2000, [0xaf, 1, 0x21])), 2000, "an AAC frame");
  assert.equal(flvMediaTime(tag(9, 0, [0x17, 0, 0, 0, 0])), undefined, "the AVC sequence header");
  assert.equal(flvMediaTime(tag(8, 0, [0xaf, 0, 0x12])), undefined, "the AAC sequence header");
  assert.equal(flvMediaTime(tag(9, 0, [0x90, 0x68, 0x76, 0x63])), undefined, "enhanced RTMP's sequence start (HEVC)");
  assert.equal(flvMediaTime(tag(9, 4000, [0x91, 0x68, 0x76, 0x63])), 4000, "enhanced RTMP's coded frames");
  assert.equal(flvMediaTime(tag(18, 0, [2, 0, 10])), undefined, "script data");
  assert.equal(flvMediaTime(Buffer.from("FLV\x01\x05\0\0\0\x09\0\0\0\0")), undefined, "the FLV header");
});
