import assert from "node:assert/strict";
import { test } from "node:test";
import { rotationOf } from "@/lib/assets/processing/inspect";
import { pictureFilter, sourceTranscodeArgs } from "@/lib/assets/processing/source-transcode";
import { containerNamed, containerOf, READABLE_DEMUXERS } from "@/lib/av/containers";

const MOV = "mov,mp4,m4a,3gp,3g2,mj2";

test("a probed file's container is named as its users know it, from ffprobe's demuxer, brand and codecs", () => {
  const name = (format: string, brand: string | undefined, codecs: string[]) => containerOf(format, brand, codecs)?.format;
  assert.equal(name(MOV, "isom", ["h264", "aac"]), "mp4");
  assert.equal(name(MOV, "qt  ", ["hevc", "aac"]), "mov", "an iPhone's video");
  assert.equal(name(MOV, "3gp4", ["h263", "amr_nb"]), "3gp");
  assert.equal(name("matroska,webm", undefined, ["vp9", "opus"]), "webm");
  assert.equal(name("matroska,webm", undefined, ["h264", "mp3"]), "mkv");
  assert.equal(name("mpegts", undefined, ["h264", "ac3"]), "mpegts");
  assert.equal(name("mp3", undefined, ["mp3"]), "mp3");
  assert.equal(name("hls", undefined, ["h264"]), undefined, "a playlist is no container Castline reads");
  assert.equal(name("concat", undefined, []), undefined);
});

test("only self-contained demuxers may open a user's file; an asset is reopened with its own one", () => {
  assert.deepEqual(READABLE_DEMUXERS.split(","), ["mov", "matroska", "avi", "mpegts", "mpeg", "flv", "ogg", "asf", "wav", "mp3", "aac", "flac"]);
  for (const playlist of ["hls", "dash", "concat", "image2", "webm_dash_manifest", "tee"]) assert.ok(!READABLE_DEMUXERS.split(",").includes(playlist));
  assert.equal(containerNamed("webm").demuxer, "matroska");
  assert.equal(containerNamed("mov").contentType, "video/quicktime");
  assert.equal(containerNamed(undefined).format, "mp4", "assets from before: MP4");
});

test("a phone's rotation is read from the display matrix (or an old rotate tag) as degrees 0-359", () => {
  const stream = { index: 0, codec_type: "video" };
  assert.equal(rotationOf({ ...stream, side_data_list: [{ side_data_type: "Display Matrix", rotation: -90 }] }), 270);
  assert.equal(rotationOf({ ...stream, side_data_list: [{ side_data_type: "Display Matrix", rotation: 90 }] }), 90);
  assert.equal(rotationOf({ ...stream, tags: { rotate: "180" } }), 180);
  assert.equal(rotationOf(stream), 0);
});

test("HDR is tone-mapped from its own transfer to SDR BT.709 before the even, square-pixel scale; SDR only scales", () => {
  const hdr = { transfer: "arib-std-b67", primaries: "bt2020", matrix: "bt2020nc", range: "tv" };
  const filter = pictureFilter({ hdr });
  assert.match(filter, /^zscale=transferin=arib-std-b67:primariesin=bt2020:matrixin=bt2020nc:rangein=tv:transfer=linear/);
  assert.match(filter, /tonemap=tonemap=hable.*zscale=transfer=bt709:matrix=bt709.*format=yuv420p,scale=trunc\(iw\*sar\/2\)\*2:trunc\(ih\/2\)\*2,setsar=1$/);
  assert.equal(pictureFilter({}), "scale=trunc(iw*sar/2)*2:trunc(ih/2)*2,setsar=1");
});

test("the source transcode copies H.264 browsers play and encodes only the sound; opens the file as its one demuxer", () => {
  const plan = { demuxer: "matroska", transcodeBecause: ["audio mp3"], videoPlays: true, video: 0, audio: 1, audioChannels: 6 };
  const args = sourceTranscodeArgs("/tmp/in.mkv", plan, "/tmp/out.mp4");
  assert.deepEqual(args.slice(0, 6), ["-protocol_whitelist", "file", "-format_whitelist", "matroska", "-i", "/tmp/in.mkv"]);
  assert.ok(args.join(" ").includes("-c:v copy"));
  assert.ok(args.join(" ").includes("-c:a aac -b:a 160k -ac 2"), "5.1 is mixed down to stereo");
  const encoded = sourceTranscodeArgs("/tmp/in.mov", { ...plan, demuxer: "mov", videoPlays: false, audio: undefined }, "/tmp/out.mp4").join(" ");
  assert.match(encoded, /-c:v libx264 .*-pix_fmt yuv420p -force_key_frames expr:gte\(t,n_forced\*4\)/);
  assert.ok(!encoded.includes("-c:a"), "no audio, no audio encoder");
});
