import assert from "node:assert/strict";
import { test } from "node:test";
import { chunkPlan, defaultLadder, profileLadder } from "@/lib/assets/processing/ladder";
import { fitToSource } from "@/lib/av/fit";
import { TranscodeProfile } from "@/lib/assets/schema";
import { assetMasterPlaylist } from "@/lib/assets/master";
import type { AssetRow, RenditionRow } from "@/lib/assets/service";
import type { TextTrackRow } from "@/lib/assets/text-tracks";

const sizes = (plans: { name: string; width: number; height: number; fps: number; bitrate: number }[]) =>
  plans.map((p) => `${p.name} ${p.width}x${p.height}@${p.fps} ${p.bitrate / 1000}k`);

test("the default ladder of a 1080p30 source is exactly 1080p, 720p, 480p and 360p at Apple's bitrates", () => {
  assert.deepEqual(sizes(defaultLadder({ width: 1920, height: 1080, fps: 30 })), [
    "1080p 1920x1080@30 6000k",
    "720p 1280x720@30 3000k",
    "480p 854x480@30 1500k",
    "360p 640x360@30 365k",
  ]);
});

test("never above the source's height or frame rate; tall rungs keep 60 fps, short ones drop to 30", () => {
  assert.deepEqual(sizes(defaultLadder({ width: 1280, height: 720, fps: 25 })), ["720p 1280x720@25 3000k", "480p 854x480@25 1500k", "360p 640x360@25 365k"]);
  assert.deepEqual(sizes(defaultLadder({ width: 640, height: 360, fps: 30 })), ["360p 640x360@30 365k"]);
  assert.deepEqual(sizes(defaultLadder({ width: 320, height: 240, fps: 30 })), ["240p 320x240@30 365k"]);
  assert.deepEqual(sizes(defaultLadder({ width: 1920, height: 1080, fps: 60 })).slice(1, 3), ["720p 1280x720@60 4500k", "480p 854x480@30 1500k"]);
});

test("a portrait video's rungs follow its short side", () => {
  assert.deepEqual(sizes(defaultLadder({ width: 1080, height: 1920, fps: 30 })).slice(0, 2), ["1080p 1080x1920@30 6000k", "720p 720x1280@30 3000k"]);
});

test("profiles keep the source's aspect inside the box asked, never above its frame rate, tallest first", () => {
  const plans = profileLadder(
    [
      { name: "a", width: 320, height: 320, bitrate: 200_000 },
      { height: 480, bitrate: 900_000, fps: 60 },
      { name: "c", width: 1280, bitrate: 3_000_000, fps: 24 },
    ],
    { width: 1920, height: 1080, fps: 30 },
  );
  assert.deepEqual(sizes(plans), ["c 1280x720@24 3000k", "480p 854x480@30 900k", "a 320x180@30 200k"]);
});

test("profiles larger or faster than the source get the source's size and rate, under the names asked", () => {
  const plans = profileLadder(
    [
      { height: 1080, bitrate: 6_000_000, fps: 60 },
      { width: 1280, bitrate: 3_000_000 },
      { name: "sq", width: 4000, height: 4000, bitrate: 1_000_000 },
    ],
    { width: 160, height: 90, fps: 15 },
  );
  assert.deepEqual(sizes(plans), ["1080p 160x90@15 6000k", "720p 160x90@15 3000k", "sq 160x90@15 1000k"]);
  // An odd-sized source: the even size below it, never a pixel above.
  assert.deepEqual(fitToSource({ width: 1920, height: 1080, fps: 30 }, { width: 161, height: 91 }), { width: 160, height: 90, fps: 30 });
  assert.deepEqual(fitToSource({ width: 1920, height: 1080 }, { width: 90, height: 160, fps: 25 }), { width: 90, height: 160, fps: 25 }, "portrait");
  assert.deepEqual(fitToSource({ height: 360 }, { width: 1920, height: 1080, fps: 50 }), { width: 640, height: 360, fps: 50 });
});

test("profiles: only H.264, names safe as path segments and unique, a bitrate required", () => {
  const bad = [
    { height: 360 },
    { height: 360, bitrate: 1_000_000, encoder: "HEVC" },
    { name: "..", height: 360, bitrate: 1_000_000 },
    { name: "a/b", height: 360, bitrate: 1_000_000 },
  ];
  for (const p of bad) assert.equal(TranscodeProfile.safeParse(p).success, false, JSON.stringify(p));
  assert.equal(TranscodeProfile.safeParse({ name: "720p", width: 1280, height: 720, bitrate: 3_000_000, encoder: "H.264", profile: "H264High" }).success, true);
});

test("chunks: whole chunks of the given length, a short tail joined to the one before", () => {
  assert.deepEqual(
    chunkPlan(60, 20).map((c) => [c.start, c.duration]),
    [
      [0, 20],
      [20, 20],
      [40, 20],
    ],
  );
  assert.deepEqual(
    chunkPlan(65, 20).map((c) => [c.start, c.duration]),
    [
      [0, 20],
      [20, 20],
      [40, 25],
    ],
  );
  assert.deepEqual(
    chunkPlan(71, 20).map((c) => [c.start, c.duration]),
    [
      [0, 20],
      [20, 20],
      [40, 20],
      [60, 11],
    ],
  );
  assert.deepEqual(
    chunkPlan(3, 20).map((c) => [c.start, c.duration]),
    [[0, 3]],
  );
});

test("the master lists renditions as they are ready, and the source remux until a rendition as tall is", () => {
  const asset = {
    size: 1_000_000,
    videoSpec: { format: "mp4", duration: 10, bitrate: 8_000_000, tracks: [{ type: "video", codec: "h264", width: 1920, height: 1080, fps: 30 }] },
  } as unknown as AssetRow;
  const rung = (name: string, height: number, phase: string) =>
    ({
      name,
      width: (height * 16) / 9,
      height,
      phase,
      bitrate: height * 5000,
      bandwidth: height * 6000,
      averageBandwidth: height * 5000,
      fps: 30,
      codecs: "avc1.64001f,mp4a.40.2",
    }) as unknown as RenditionRow;
  const uris = (p: string) => p.split("\n").filter((l) => l && !l.startsWith("#"));

  const growing = assetMasterPlaylist(asset, [rung("1080p", 1080, "transcoding"), rung("360p", 360, "ready")]);
  assert.deepEqual(uris(growing.playlist), ["source.m3u8", "360p/index.m3u8"]);
  assert.equal(growing.final, false);
  const done = assetMasterPlaylist(asset, [rung("1080p", 1080, "ready"), rung("360p", 360, "ready")]);
  assert.deepEqual(uris(done.playlist), ["1080p/index.m3u8", "360p/index.m3u8"]);
  assert.match(done.playlist, /AVERAGE-BANDWIDTH=1800000,RESOLUTION=640x360,FRAME-RATE=30.000,CODECS="avc1.64001f,mp4a.40.2"/);
  const tallFailed = assetMasterPlaylist(asset, [rung("1080p", 1080, "failed"), rung("360p", 360, "ready")]);
  assert.deepEqual(uris(tallFailed.playlist), ["source.m3u8", "360p/index.m3u8"]);
});

test("caption tracks are the master's subtitles group, and every variant names it", () => {
  const asset = {
    videoSpec: { format: "mp4", duration: 10, tracks: [{ type: "video", codec: "h264", width: 640, height: 360, fps: 30 }] },
    size: 1_000_000,
  } as unknown as AssetRow;
  const rung = {
    name: "360p",
    width: 640,
    height: 360,
    phase: "ready",
    bitrate: 365_000,
    bandwidth: 400_000,
    fps: 30,
    codecs: "avc1.64001e,mp4a.40.2",
  } as unknown as RenditionRow;
  const track = (id: string, language: string, name: string) => ({ id, language, name }) as unknown as TextTrackRow;
  const { playlist } = assetMasterPlaylist(asset, [rung], [track("t1", "en", "English"), track("t2", "pt-BR", 'Say "oi"')]);
  const lines = playlist.split("\n");
  assert.deepEqual(
    lines.filter((l) => l.startsWith("#EXT-X-MEDIA:")),
    [
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="captions/t1.m3u8"',
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Say 'oi'",LANGUAGE="pt-BR",DEFAULT=NO,AUTOSELECT=YES,URI="captions/t2.m3u8"`,
    ],
  );
  const variants = lines.filter((l) => l.startsWith("#EXT-X-STREAM-INF:"));
  assert.equal(variants.length, 1);
  assert.ok(
    variants.every((v) => v.endsWith(',SUBTITLES="subs"')),
    playlist,
  );
  // Without tracks, no group is named (a player would look for one).
  assert.doesNotMatch(assetMasterPlaylist(asset, [rung]).playlist, /SUBTITLES/);
});
