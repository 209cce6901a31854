import assert from "node:assert/strict";
import { test } from "node:test";
import { diagnoseHealth, healthBucketMs } from "@/lib/sessions/health-readings";
import type { HealthSample } from "@/lib/sessions/schema";

const ladder = [{ name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 }];
const start = Date.UTC(2026, 10, 23, 14, 5);
/** `n` samples 5 s apart, from `fill(i)`. */
const samples = (n: number, fill: (i: number) => Omit<HealthSample, "at">) => Array.from({ length: n }, (_, i) => ({ at: start + i * 5000, ...fill(i) }));
const good = { bitrateKbps: 3500, fps: 30, keyframeIntervalS: 2 };
const SEGMENT_S = 2;

test("a steady feed at the ladder's bitrate with 2 s keyframes has nothing to fix", () => {
  assert.deepEqual(
    diagnoseHealth(
      samples(20, () => good),
      ladder,
      start,
      SEGMENT_S,
    ),
    [],
  );
  assert.deepEqual(diagnoseHealth([], ladder, start, SEGMENT_S), []);
});

test("slow keyframes, frame-rate drops and a bitrate far below the ladder are each named, from when", () => {
  const issues = diagnoseHealth(
    samples(20, (i) => ({ bitrateKbps: 900, fps: i === 14 ? 12 : 30, keyframeIntervalS: i >= 3 ? 4 : 2 })),
    ladder,
    start,
    SEGMENT_S,
  );
  const by = Object.fromEntries(issues.map((i) => [i.reading, i]));
  assert.deepEqual(Object.keys(by).sort(), ["bitrate", "fps", "keyframeInterval"]);
  assert.equal(by.keyframeInterval.at, start + 3 * 5000);
  assert.match(by.keyframeInterval.message, /4 s apart/);
  assert.match(by.keyframeInterval.message, /keyframe interval to 2 s/);
  assert.equal(by.fps.at, start + 14 * 5000);
  assert.match(by.fps.message, /dropped to 12 fps \(usually 30/);
  assert.match(by.bitrate.message, /about 900 kbps.*720p, 3000 kbps/);
});

test("irregular keyframes are named even when none is late", () => {
  const issues = diagnoseHealth(
    samples(10, (i) => ({ ...good, keyframeIntervalS: i % 2 ? 0.5 : 2 })),
    ladder,
    start,
    SEGMENT_S,
  );
  assert.equal(issues.length, 1);
  assert.match(issues[0].message, /irregularly \(0\.5 to 2 s apart\)/);
});

test("renditions the node dropped to keep up are named, from when, as the node's doing, not the encoder's", () => {
  const issues = diagnoseHealth(
    samples(40, (i) => ({ ...good, lagS: i < 24 ? 1 : 2, ...(i >= 25 ? { droppedRenditions: i >= 26 ? ["480p", "360p"] : ["480p"] } : {}) })),
    ladder,
    start + 25 * 5000 - 5 * 60_000,
    SEGMENT_S,
  );
  assert.equal(issues.length, 1);
  assert.equal(issues[0].reading, "transcoding");
  assert.equal(issues[0].at, start + 25 * 5000);
  assert.match(issues[0].message, /^Transcoding fell behind real time from 5 min in: 480p and 360p dropped to keep the stream live/);
  assert.match(issues[0].message, /media node is overloaded/);
});

test("a live output that trails the encoder past two segments is named, though nothing was dropped", () => {
  const trailing = diagnoseHealth(
    samples(10, (i) => ({ ...good, lagS: i >= 6 ? 9.6 : 1 })),
    ladder,
    start,
    SEGMENT_S,
  );
  assert.deepEqual(
    trailing.map((i) => [i.reading, i.at]),
    [["transcoding", start + 6 * 5000]],
  );
  assert.match(trailing[0].message, /trailed your encoder by up to 10 s/);
  assert.deepEqual(
    diagnoseHealth(
      samples(10, () => ({ ...good, lagS: 3.9 })),
      ladder,
      start,
      SEGMENT_S,
    ),
    [],
    "within two segments (4 s)",
  );
});

test("buckets are 5 s for an hour, then widen as the broadcast doubles in age, aligned", () => {
  const hour = 3600_000;
  assert.equal(healthBucketMs(0), 5000);
  assert.equal(healthBucketMs(hour - 1), 5000);
  assert.equal(healthBucketMs(hour), 10_000);
  assert.equal(healthBucketMs(2 * hour), 20_000);
  assert.equal(healthBucketMs(5 * hour), 40_000);
  // rows kept over a week of broadcast
  let rows = 0;
  for (let t = 0; t < 7 * 24 * hour; t += healthBucketMs(t)) rows++;
  assert.ok(rows < 4000, String(rows));
});
