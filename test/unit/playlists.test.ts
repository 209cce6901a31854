import assert from "node:assert/strict";
import { test } from "node:test";
import { masterPlaylist, parseMediaPlaylist } from "@/lib/av/hls";

test("a media playlist parses into its segments and durations", () => {
  const text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.000,\nseg_0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1.5,\nseg_1.ts\n#EXT-X-ENDLIST\n";
  assert.deepEqual(parseMediaPlaylist(text), [{ uri: "seg_0.ts", duration: 2 }, { uri: "seg_1.ts", duration: 1.5 }]);
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
