import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseFromOffer, ffmpegSdp, matchViewerOffer, withPublicAddresses } from "@/media-node/sdp";
import { flvReorders } from "@/media-node/feed";
import { RENDITION_FORMATS, renditionArgs } from "@/media-node/webrtc-rendition";
import { plainRtp, readViewerRtcp } from "@/media-node/whip";

/** The shape of Chromium's offer: VP8 first, H.264 in several profiles and both packetisation modes, Opus. */
const CHROME_OFFER = [
  "v=0",
  "o=- 1 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "m=audio 9 UDP/TLS/RTP/SAVPF 111 63",
  "a=mid:0",
  "a=sendonly",
  "a=rtpmap:111 opus/48000/2",
  "a=fmtp:111 minptime=10;useinbandfec=1",
  "a=rtpmap:63 red/48000/2",
  "m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 106 107",
  "a=mid:1",
  "a=sendonly",
  "a=rtpmap:96 VP8/90000",
  "a=rtpmap:97 rtx/90000",
  "a=fmtp:97 apt=96",
  "a=rtpmap:102 H264/90000",
  "a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f",
  "a=rtpmap:103 H264/90000",
  "a=fmtp:103 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f",
  "a=rtpmap:106 H264/90000",
  "a=fmtp:106 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
  "a=rtpmap:107 H264/90000",
  "a=fmtp:107 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f",
].join("\r\n");

test("a WHIP offer's formats: H.264 in mode 1 and the most widely decoded profile, Opus; VP8 when there is no H.264", () => {
  const choice = chooseFromOffer(CHROME_OFFER);
  assert.deepEqual(
    [choice.video?.mid, choice.video?.payloadType, choice.audio?.mid, choice.audio?.payloadType, choice.audio?.channels],
    ["1", 106, "0", 111, 2],
  );
  const noH264 = CHROME_OFFER.split("\r\n")
    .filter((l) => !/H264|:10[2367] /.test(l))
    .join("\r\n");
  assert.equal(chooseFromOffer(noH264).video?.codec, "VP8", "Firefox without OpenH264: VP8, transcoded for HLS");
  const receiving = CHROME_OFFER.replace(/a=sendonly/g, "a=recvonly");
  assert.deepEqual(chooseFromOffer(receiving), {}, "an offer to receive is not a publish");
  const sdp = ffmpegSdp(choice, { video: 40000, audio: 40002 });
  assert.match(sdp, /m=video 40000 RTP\/AVP 106\na=rtpmap:106 H264\/90000\na=fmtp:106 .*packetization-mode=1/);
  assert.match(sdp, /m=audio 40002 RTP\/AVP 111\na=rtpmap:111 opus\/48000\/2/);
});

test("RTP for ffmpeg and viewers: header extensions removed, packets of padding alone dropped", () => {
  const header = [0x90, 106, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]; // V=2, X=1
  const extension = [0xbe, 0xde, 0, 1, 0x10, 0xff, 0, 0]; // one-byte extensions, one word
  const payload = [0x65, 1, 2, 3];
  const out = plainRtp(Buffer.from([...header, ...extension, ...payload]))!;
  assert.deepEqual([...out], [0x80, ...header.slice(1), ...payload]);
  const padding = Buffer.from([0xa0, 106, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4]); // P=1, 4 bytes of padding
  assert.equal(plainRtp(padding), undefined);
  assert.equal(plainRtp(Buffer.from([1, 2, 3])), undefined, "not RTP");
});

test("a viewer's offer (WHEP) is matched to what the publisher sends: the same codec, H.264 in mode 1 and the publisher's profile first", () => {
  const sent = chooseFromOffer(CHROME_OFFER);
  const viewer = CHROME_OFFER.replace(/a=sendonly/g, "a=recvonly");
  const choice = matchViewerOffer(viewer, sent);
  assert.deepEqual([choice.video?.payloadType, choice.audio?.payloadType], [106, 111]);
  const noProfile = viewer.replace("profile-level-id=42e01f\r\na=rtpmap:107", "profile-level-id=4d001f\r\na=rtpmap:107");
  assert.equal(matchViewerOffer(noProfile, sent).video?.payloadType, 103, "another mode-1 H.264 when the publisher's profile is not offered");
  assert.deepEqual(matchViewerOffer(CHROME_OFFER, sent), {}, "an offer to send is not a viewer's");
});

test("a viewer's RTCP: a keyframe asked with a PLI or a FIR, packets asked again (NACK), packets lost (its reports), anywhere in a compound packet", () => {
  // A receiver report on SSRC 0x01020304: fraction lost 10, cumulative lost 300.
  const receiverReport = [0x81, 201, 0, 7, 0, 0, 0, 9, 1, 2, 3, 4, 10, 0, 0x01, 0x2c, ...Array(16).fill(0)];
  const pli = [0x81, 206, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2];
  const remb = [0x8f, 206, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0x52, 0x45, 0x4d, 0x42, 1, 0, 0, 0];
  // Two entries: packet 100 alone, packet 200 and the three its mask names.
  const nack = [0x81, 205, 0, 4, 0, 0, 0, 1, 0, 0, 0, 2, 0, 100, 0, 0, 0, 200, 0b1000_0000, 0b0000_0101];
  const read = (...parts: number[][]) => readViewerRtcp(Buffer.from(parts.flat()));
  assert.equal(read(receiverReport, pli).keyframe, true);
  assert.equal(read(receiverReport, remb).keyframe, false);
  assert.equal(read([0x84, 206, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2]).keyframe, true, "a FIR");
  assert.equal(read(receiverReport, nack).nacked, 5);
  assert.deepEqual([...read(receiverReport, pli).lost], [[0x01020304, 300]]);
  // A sender report (a viewer that also sends) carries its report blocks after 20 bytes of sender info.
  const senderReport = [0x81, 200, 0, 12, 0, 0, 0, 9, ...Array(20).fill(0), 1, 2, 3, 4, 0, 0, 0, 7, ...Array(16).fill(0)];
  assert.deepEqual([...read(senderReport).lost], [[0x01020304, 7]]);
  assert.deepEqual(read([0x81, 201, 0, 7, 0]), { keyframe: false, nacked: 0, lost: new Map() }, "a truncated packet says nothing");
});

test("the rendition for WebRTC viewers of an RTMP publish: no B-frames, a keyframe every second, Opus only with audio, a viewer's offer matched to it", () => {
  const args = renditionArgs("unix:/tmp/feeds/1.sock", { video: 40000, audio: 40002 });
  const after = (flag: string) => args[args.indexOf(flag) + 1];
  assert.equal(after("-i"), "unix:/tmp/feeds/1.sock", "read from the node's feed: no stream key on the command line");
  assert.equal(after("-bf"), "0");
  assert.equal(after("-profile:v"), "baseline");
  assert.equal(after("-force_key_frames"), "expr:gte(t,n_forced*1)");
  assert.deepEqual(
    args.filter((a) => a.startsWith("rtp://")),
    ["rtp://127.0.0.1:40000?pkt_size=1200", "rtp://127.0.0.1:40002?pkt_size=1200"],
  );
  assert.equal(after("-c:a"), "libopus");
  const copied = renditionArgs("unix:/tmp/feeds/3.sock", { video: 40000 }, true);
  assert.equal(copied[copied.indexOf("-c:v") + 1], "copy", "H.264 without B-frames: copied");
  assert.ok(!copied.includes("libx264") && copied.includes("h264_mp4toannexb"), "in Annex B, parameter sets before each keyframe");
  const silent = renditionArgs("unix:/tmp/feeds/2.sock", { video: 40000 });
  assert.ok(!silent.includes("-c:a") && silent.filter((a) => a.startsWith("rtp://")).length === 1, "no audio: video alone");

  // Chromium's offer takes the rendition's H.264 (constrained baseline, mode 1) and Opus, in its own payload types.
  const viewer = matchViewerOffer(CHROME_OFFER.replace(/a=sendonly/g, "a=recvonly"), RENDITION_FORMATS);
  assert.equal(viewer.video?.codec, "H264");
  assert.match(viewer.video?.fmtp ?? "", /packetization-mode=1/);
  assert.equal(viewer.audio?.codec.toLowerCase(), "opus");
});

test("behind 1:1 NAT the answer also offers the public address: each host candidate repeated, same port, its own foundation, just below in priority", () => {
  const answer = [
    "v=0",
    "m=video 9 UDP/TLS/RTP/SAVPF 96",
    "a=candidate:1 1 UDP 2122317823 10.0.0.5 40002 typ host",
    "a=candidate:2 1 UDP 1686052607 198.51.100.9 40002 typ srflx raddr 10.0.0.5 rport 40002",
    "a=end-of-candidates",
    "",
  ].join("\r\n");
  const out = withPublicAddresses(answer, ["203.0.113.10"]).split("\r\n");
  assert.deepEqual(
    out.filter((l) => l.startsWith("a=candidate")),
    [
      "a=candidate:1 1 UDP 2122317823 10.0.0.5 40002 typ host",
      "a=candidate:11 1 UDP 2122317822 203.0.113.10 40002 typ host",
      "a=candidate:2 1 UDP 1686052607 198.51.100.9 40002 typ srflx raddr 10.0.0.5 rport 40002",
    ],
  );
  assert.equal(withPublicAddresses(answer, []), answer, "none set: the answer as it is");
});

test("an FLV tag of H.264 frames tells whether its frame is reordered (a composition time offset: B-frames)", () => {
  // tag header (11 bytes: type 9, size, timestamp, stream id), then frame type/codec, AVC packet type, composition time (SI24)
  const tag = (head: number, packetType: number, cts: number) => {
    const out = Buffer.alloc(20);
    out[0] = 9;
    out[11] = head;
    out[12] = packetType;
    out.writeIntBE(cts, 13, 3);
    return out;
  };
  assert.equal(flvReorders(tag(0x17, 1, 0)), false, "a keyframe shown when decoded");
  assert.equal(flvReorders(tag(0x27, 1, 66)), true, "a frame shown 66 ms later");
  assert.equal(flvReorders(tag(0x27, 1, -33)), true, "or earlier");
  assert.equal(flvReorders(tag(0x17, 0, 0)), undefined, "the sequence header is no frame");
  assert.equal(flvReorders(tag(0x9c, 1, 0)), undefined, "enhanced RTMP (HEVC, AV1): not H.264");
  const audio = tag(0xaf, 1, 0);
  audio[0] = 8;
  assert.equal(flvReorders(audio), undefined, "audio");
});
