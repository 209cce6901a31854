import assert from "node:assert/strict";
import { test } from "node:test";
import { clippableRange, timelineFor, type TimelineRanges } from "@/lib/clips/timeline";

// A broadcast whose media runs 104 s behind the clock: its times are its own, not the wall clock's.
const clock = Date.UTC(2026, 10, 25, 20, 0);
const dvr = { kind: "dvr" as const, start: clock - 700_000, end: clock - 104_000.4 };
const recording = { kind: "recording" as const, start: clock - 900_000, end: clock - 103_000 };

test("while live, what a clip can take ends at the DVR's live edge and starts at the oldest media kept", () => {
  const ranges: TimelineRanges = { dvr, recording };
  assert.deepEqual(clippableRange(ranges, true), { startTime: clock - 900_000, endTime: clock - 104_001 });
  assert.deepEqual(clippableRange({ dvr }, true), { startTime: clock - 700_000, endTime: clock - 104_001 });
});

test("once ended, the recording's end is the end; without a recording, the DVR's", () => {
  assert.deepEqual(clippableRange({ dvr, recording }, false), { startTime: clock - 900_000, endTime: clock - 103_000 });
  assert.deepEqual(clippableRange({ dvr }, false), { startTime: clock - 700_000, endTime: clock - 104_001 });
  assert.equal(clippableRange({}, true), undefined);
});

test("a range is cut from the preferred media when it reaches back far enough, else from the other", () => {
  const ranges: TimelineRanges = { dvr, recording };
  assert.equal(timelineFor(ranges, clock - 130_000, true)?.kind, "dvr");
  assert.equal(timelineFor(ranges, clock - 800_000, true)?.kind, "recording");
  assert.equal(timelineFor(ranges, clock - 130_000, false)?.kind, "recording");
  assert.equal(timelineFor(ranges, clock - 1_000_000, true), undefined);
  // A player's time a frame before the first segment is taken as its start.
  assert.equal(timelineFor({ dvr }, dvr.start - 50, true)?.kind, "dvr");
});
