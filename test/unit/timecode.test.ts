import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTimecode } from "@/components/assets/asset-info";

test("clip times are seconds or mm:ss or h:mm:ss", () => {
  assert.equal(parseTimecode("75"), 75);
  assert.equal(parseTimecode(" 2.5 "), 2.5);
  assert.equal(parseTimecode("1:15"), 75);
  assert.equal(parseTimecode("0:03.25"), 3.25);
  assert.equal(parseTimecode("1:02:05"), 3725);
  for (const bad of ["", "1:75", "1:60:00", "-3", "1:2:3:4", "abc", "1,5"]) assert.equal(parseTimecode(bad), undefined, bad);
});
