import assert from "node:assert/strict";
import { test } from "node:test";
import { VideoMeter } from "@/media-node/video-meter";

/** Frames of `fps` from `fromMs` for `seconds`, with RTMP's whole-millisecond timestamps, keyframes every 2 s. */
function feed(meter: VideoMeter, fps: number, seconds: number, fromMs = 0) {
  for (let i = 0; i < fps * seconds; i++) meter.frame(fromMs + Math.round((i * 1000) / fps), i % (fps * 2) === 0);
}

test("frame rate and keyframe interval come from the timestamps", () => {
  for (const fps of [30, 15, 25, 60]) {
    const meter = new VideoMeter();
    feed(meter, fps, 5);
    assert.ok(Math.abs(meter.fps! - fps) < 0.1, `${meter.fps} for ${fps}`);
    assert.equal(meter.keyframeIntervalS, 2);
  }
  const ntsc = new VideoMeter();
  for (let i = 0; i < 300; i++) ntsc.frame(Math.round((i * 1001) / 30), false);
  assert.ok(Math.abs(ntsc.fps! - 29.97) < 0.05, String(ntsc.fps));
});

test("a publisher that restarts its clock is measured afresh", () => {
  const meter = new VideoMeter();
  feed(meter, 30, 5, 100_000);
  feed(meter, 15, 3, 0);
  assert.ok(Math.abs(meter.fps! - 15) < 0.1, String(meter.fps));
  assert.equal(new VideoMeter().fps, undefined, "no frames, no reading");
});
