import assert from "node:assert/strict";
import { test } from "node:test";
import { masterPlaylist, mediaPlaylist, parseMediaPlaylist, wholeFilePlaylist } from "@/lib/av/hls";

test("a media playlist parses into its segments and durations", () => {
  const text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.000,\nseg_0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1.5,\nseg_1.ts\n#EXT-X-ENDLIST\n";
  assert.deepEqual(parseMediaPlaylist(text), [
    { uri: "seg_0.ts", duration: 2 },
    { uri: "seg_1.ts", duration: 1.5 },
  ]);
  assert.deepEqual(parseMediaPlaylist(""), []);
});

test("a master playlist lists every variant with what players choose by", () => {
  const master = masterPlaylist([
    { uri: "v0/index.m3u8", name: 'source "hd"', bandwidth: 2_500_000.4, width: 1280, height: 720, frameRate: 30, codecs: ["avc1.64001f", "mp4a.40.2"] },
    { uri: "v1/index.m3u8", name: "360p", bandwidth: 800_000, width: 640, height: 360, codecs: ["avc1.4d401e"] },
  ]);
  assert.equal(
    master,
    [
      "#EXTM3U",
      "#EXT-X-VERSION:6",
      "#EXT-X-INDEPENDENT-SEGMENTS",
      `#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,FRAME-RATE=30.000,CODECS="avc1.64001f,mp4a.40.2",NAME="source 'hd'"`,
      "v0/index.m3u8",
      `#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e",NAME="360p"`,
      "v1/index.m3u8",
      "",
    ].join("\n"),
  );
});

// The one media-playlist writer, with the bytes each of its callers wrote before they shared it.

test("a VOD rendition's playlist lists its chunks' segments, closed, the target the longest rounded up", () => {
  const segments = [
    { uri: "seg_00000.ts", duration: 4.004 },
    { uri: "seg_00001.ts", duration: 4.5 },
    { uri: "seg_00002.ts", duration: 1.25 },
  ];
  assert.equal(
    mediaPlaylist(segments, { type: "VOD", durationDigits: 6 }),
    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:5\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n" +
      "#EXTINF:4.004000,\nseg_00000.ts\n#EXTINF:4.500000,\nseg_00001.ts\n#EXTINF:1.250000,\nseg_00002.ts\n#EXT-X-ENDLIST\n",
  );
});

test("a live session's recording grows (EVENT, not closed), with its wall clock and a discontinuity where the epoch changes", () => {
  const recording = [
    { uri: "1/seg_00000.ts", duration: 2, programDateTime: Date.UTC(2026, 0, 2, 3, 4, 5, 600) },
    { uri: "1/seg_00001.ts", duration: 2.002 },
    { uri: "2/seg_00000.ts", duration: 1.9, programDateTime: Date.UTC(2026, 0, 2, 3, 4, 20), discontinuity: true },
  ];
  const body =
    "#EXT-X-PROGRAM-DATE-TIME:2026-01-02T03:04:05.600Z\n#EXTINF:2.000000,\n1/seg_00000.ts\n#EXTINF:2.002000,\n1/seg_00001.ts\n" +
    "#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2026-01-02T03:04:20.000Z\n#EXTINF:1.900000,\n2/seg_00000.ts\n";
  const head = (type: string) => `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:${type}\n`;
  assert.equal(mediaPlaylist(recording, { type: "EVENT", durationDigits: 6 }), head("EVENT") + body);
  assert.equal(mediaPlaylist(recording, { type: "VOD", durationDigits: 6 }), head("VOD") + body + "#EXT-X-ENDLIST\n");
});

test("a caption track is one whole-file segment as long as the video, never of no length", () => {
  const head = "#EXTM3U\n#EXT-X-VERSION:3\n";
  assert.equal(
    wholeFilePlaylist("en.vtt", 61.2345),
    `${head}#EXT-X-TARGETDURATION:62\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:61.234,\nen.vtt\n#EXT-X-ENDLIST\n`,
  );
  assert.equal(
    wholeFilePlaylist("en.vtt", 0),
    `${head}#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:0.001,\nen.vtt\n#EXT-X-ENDLIST\n`,
  );
});
