import assert from "node:assert/strict";
import { test } from "node:test";
import { parseThumbnailsVtt, thumbnailAt } from "@/lib/client/seek-thumbnails";

const VTT_URL = "https://cdn.example/asset/abc/thumbnails/thumbnails.vtt";

test("sprite cues parse into times, absolute sheet URLs and tiles", () => {
  const vtt = [
    "WEBVTT",
    "",
    "00:00:00.000 --> 00:00:02.000",
    "sprite_001.jpg#xywh=0,0,160,90",
    "",
    "1",
    "00:00:02.000 --> 00:00:04.500 align:start",
    "sprite_001.jpg#xywh=160,0,160,90",
    "",
    "01:00:04.500 --> 01:00:06.000",
    "https://other.example/sheet_002.jpg#xywh=pixel:0,90,160,90",
    "",
  ].join("\r\n");
  assert.deepEqual(parseThumbnailsVtt(vtt, VTT_URL), [
    { start: 0, end: 2, url: "https://cdn.example/asset/abc/thumbnails/sprite_001.jpg", tile: { x: 0, y: 0, w: 160, h: 90 } },
    { start: 2, end: 4.5, url: "https://cdn.example/asset/abc/thumbnails/sprite_001.jpg", tile: { x: 160, y: 0, w: 160, h: 90 } },
    { start: 3604.5, end: 3606, url: "https://other.example/sheet_002.jpg", tile: { x: 0, y: 90, w: 160, h: 90 } },
  ]);
});

test("a cue of a whole image has no tile; broken cues and notes are skipped", () => {
  const vtt = "WEBVTT\n\nNOTE made by hand\n\n00:05.000 --> 00:10.000\nthumb_2.jpg\n\nnot a time --> 00:01.000\nx.jpg\n\n00:10.000 --> 00:15.000\n";
  assert.deepEqual(parseThumbnailsVtt(vtt, VTT_URL), [{ start: 5, end: 10, url: "https://cdn.example/asset/abc/thumbnails/thumb_2.jpg", tile: undefined }]);
  assert.deepEqual(parseThumbnailsVtt("", VTT_URL), []);
});

test("the thumbnail at a time is the cue containing it, the last one past the end, the first one before the start", () => {
  const cues = parseThumbnailsVtt("WEBVTT\n\n00:00.000 --> 00:02.000\na.jpg\n\n00:02.000 --> 00:04.000\nb.jpg\n\n00:04.000 --> 00:05.000\nc.jpg\n", VTT_URL);
  const name = (t: number) => thumbnailAt(cues, t)?.url.split("/").pop();
  assert.equal(name(0), "a.jpg");
  assert.equal(name(1.99), "a.jpg");
  assert.equal(name(2), "b.jpg");
  assert.equal(name(4.7), "c.jpg");
  assert.equal(name(99), "c.jpg");
  assert.equal(name(-1), "a.jpg");
  assert.equal(thumbnailAt([], 3), undefined);
});
