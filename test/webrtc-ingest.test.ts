import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BASE, newAccount } from "./support/client";
import { scenarioInNamespace } from "./support/in-namespace";

/**
 * WebRTC publishing (WHIP) at /webrtc, as a browser, OBS 30+ or Livepeer's Broadcast component does it.
 */
describe("WebRTC ingest (WHIP)", () => {
  test("a browser publishes over WHIP: the stream goes live, plays as HLS and over WHEP, stops with a DELETE of the session; the same from the stream page", async () => {
    const { seen, out } = await scenarioInNamespace("test/support/webrtc-publish.ts");
    // On failure: what the scenario had seen so far (its diagnostics among it), then what the apps printed.
    assert.equal(seen.error, undefined, `${seen.error}\nseen: ${JSON.stringify(seen).slice(0, 3000)}\n${out.slice(-3000)}`);
    assert.equal(seen.publish.status, 201, JSON.stringify(seen.publish));
    assert.match(seen.publish.location, /^\/webrtc\/session\/[\w-]+\.[0-9a-f]{32}$/);
    const video = seen.segment.find((s: { type: string }) => s.type === "video");
    assert.equal(video?.codec, "h264", JSON.stringify(seen.segment));
    assert.ok(video.width >= 320, JSON.stringify(seen.segment));
    assert.equal(seen.segment.find((s: { type: string }) => s.type === "audio")?.codec, "aac", "Opus becomes AAC for HLS");
    assert.equal(seen.webrtcSource?.type, "html5/video/h264", "the playback info lists WebRTC, as Livepeer's does, while it is published over WebRTC");
    assert.match(seen.webrtcSource.url, /\/webrtc\/[a-z0-9]+$/);
    assert.equal(seen.whep.status, 201, JSON.stringify(seen.whep));
    assert.equal(seen.whep.framed, true, `a WHEP viewer sees frames: ${JSON.stringify(seen.whep)}`);
    assert.ok(seen.whep.width >= 320 && seen.whep.frames > 12, JSON.stringify(seen.whep));
    assert.equal(seen.deleteStatus, 200);
    assert.equal(seen.ended, true);
    assert.equal(seen.secondPublisher, 409, "a second publisher of a live stream");
    assert.equal(seen.noUsableCodec, 406, "an offer with no video the node takes (AV1 alone)");
    assert.equal(seen.noUsableCodecSessions, 0, "nothing created");
    assert.deepEqual(seen.events, ["stream.started", "stream.idle"], "the webhooks fire as for RTMP");
    assert.equal(seen.recording.source, "recording", `and the broadcast is recorded as an asset: ${JSON.stringify(seen.recording)}`);
    assert.equal(seen.dashboardLive, true, "the stream page's “Go live from this browser” goes live");
    assert.equal(seen.dashboardEnded, true, "and its Stop ends the broadcast");
    assert.deepEqual(
      seen.vp8Publish.offeredVideo.filter((c: string) => !/^(rtx|red|ulpfec|flexfec-03)$/i.test(c)),
      ["VP8"],
      "a publisher offering VP8 alone (Firefox without OpenH264), and no sound",
    );
    assert.equal(seen.vp8Publish.status, 201, JSON.stringify(seen.vp8Publish));
    assert.deepEqual(
      seen.vp8Segment.map((s: { type: string; codec: string }) => [s.type, s.codec]),
      [["video", "h264"]],
      `video alone (no microphone) goes live too, made H.264 for HLS: ${JSON.stringify(seen.vp8Segment)}`,
    );
    // Made H.264 with a keyframe every segment (2 s): x264's own spacing (250 frames) made 8-25 s segments.
    assert.ok(seen.vp8SegmentS > 0 && seen.vp8SegmentS < 4.5, `its segments as long as any stream's: the first is ${seen.vp8SegmentS} s`);
    assert.equal(seen.vp8Whep.framed, true, `and plays over WHEP (its VP8 forwarded; the viewer's audio answered, silent): ${JSON.stringify(seen.vp8Whep)}`);
    assert.match(seen.rtmpWebrtcSource?.url ?? "", /\/webrtc\/[a-z0-9]+$/, "an RTMP publish is listed for WebRTC too");
    for (const whep of [seen.rtmpWhep, seen.rtmpWhepAgain]) {
      assert.equal(whep.status, 201, JSON.stringify(whep));
      assert.equal(whep.framed, true, `a WHEP viewer of an RTMP publish (B-frames, AAC) sees frames: ${JSON.stringify(whep)}`);
      assert.ok(whep.width === 640 && whep.frames > 12, JSON.stringify(whep));
      assert.ok(whep.audioPackets > 0, `and hears it (Opus): ${JSON.stringify(whep)}`);
    }
    assert.equal(
      seen.metrics.made,
      1,
      `the node's /metrics: the rendition for WebRTC viewers, its video made, runs on a while: ${JSON.stringify(seen.metrics)}`,
    );
    assert.equal(seen.copiedWhep.framed, true, `an RTMP publish without B-frames plays over WHEP: ${JSON.stringify(seen.copiedWhep)}`);
    assert.ok(seen.copiedWhep.width === 640 && seen.copiedWhep.frames > 12, JSON.stringify(seen.copiedWhep));
    assert.equal(seen.copiedMetrics.copied, 1, `its video copied as it is (passthrough): ${JSON.stringify(seen.copiedMetrics)}`);
    assert.ok(seen.metrics.sentBytes > 100_000, `and counts what it sent them: ${JSON.stringify(seen.metrics)}`);
    // Loss on loopback is rare: what is checked is that NACKs and losses are counted at all, both ways.
    for (const count of ["nacked", "lostSent", "lostReceived"] as const)
      assert.ok(Number.isInteger(seen.metrics[count]) && seen.metrics[count] >= 0, `and counts ${count}: ${JSON.stringify(seen.metrics)}`);
    assert.match(
      seen.player.webrtc.label,
      /^WebRTC · (< )?\d/,
      `Castline's player plays it over WebRTC and says how far behind: ${JSON.stringify(seen.player)}`,
    );
    assert.match(seen.player.hls.label, /^HLS/, `?lowLatency=false plays HLS: ${JSON.stringify(seen.player)}`);
    // Livepeer's own clients, from a page on another origin: both connect, and neither waited out its 5 s for ICE gathering (STUN answered on 3478).
    const livepeer = seen.livepeer;
    assert.ok(livepeer.whep.firstFrameMs > 0 && livepeer.width >= 320, `@livepeer/core-web's WHIP publishes and its WHEP plays: ${JSON.stringify(livepeer)}`);
    assert.deepEqual(
      livepeer.posts.map((p: { gathering: string; status: number }) => [p.gathering, p.status]),
      [
        ["complete", 201],
        ["complete", 201],
      ],
      `each offer sent with ICE gathering complete, and answered: ${JSON.stringify(livepeer.posts)}`,
    );
    console.log(
      `live ${seen.liveAfterMs} ms and playable ${seen.playableAfterMs} ms after the offer; the browser sends ${JSON.stringify(seen.sending)}; ` +
        `(720p ${seen.rampedAfterMs} ms after the HLS checks); a WHEP viewer's first frame ${seen.whep.firstFrameMs} ms after its offer (${seen.whep.width} wide); ` +
        `of a VP8 publish ${seen.vp8Whep.firstFrameMs} ms (its first segment ${seen.vp8SegmentS} s); of an RTMP publish without B-frames (copied) ${seen.copiedWhep.firstFrameMs} ms; with, ${seen.rtmpWhep.firstFrameMs} ms (the rendition starting) and ${seen.rtmpWhepAgain.firstFrameMs} ms (running); ` +
        `the player: ${JSON.stringify(seen.player)}; Livepeer's clients: ${JSON.stringify(seen.livepeer)}; each part done at (s): ${JSON.stringify(seen.phases)}`,
    );
  });

  test("refused before any media: an unknown key 404, a suspended stream 403, not SDP 415; WHEP of a stream not live 406 (play HLS), of a gated one without a token 401", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "whip refusals" })).body;
    const offer = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:0\r\na=sendonly\r\na=rtpmap:96 H264/90000\r\n";
    const post = (path: string, body = offer, headers: Record<string, string> = { "content-type": "application/sdp" }) =>
      fetch(`${BASE}${path}`, { method: "POST", headers, body });
    assert.equal((await post("/webrtc/no-such-key")).status, 404);
    assert.equal((await post("/webrtc", offer, { "content-type": "application/sdp" })).status, 401, "no key at all");
    assert.equal((await post(`/webrtc/${stream.streamKey}`, "{}", { "content-type": "application/json" })).status, 415);
    assert.equal((await post(`/webrtc/${stream.streamKey}`, "not sdp")).status, 400);
    const playback = await post(`/webrtc/${stream.playbackId}`);
    assert.equal(playback.status, 406, "WHEP of a stream not live: Livepeer's player then plays HLS");
    const gated = (await api.post("stream", { name: "whep gated", playbackPolicy: { type: "jwt" } })).body;
    assert.equal((await post(`/webrtc/${gated.playbackId}`)).status, 401, "WHEP is gated as HLS is: no token, no answer");
    const preflight = await fetch(`${BASE}/webrtc/${stream.streamKey}`, {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /content-type/);
    assert.match(preflight.headers.get("access-control-expose-headers") ?? "", /location/);
    assert.equal((await fetch(`${BASE}/webrtc/${stream.streamKey}`, { method: "HEAD" })).status, 200, "Livepeer's clients HEAD the URL first");
    await api.patch(`stream/${stream.id}`, { suspended: true });
    const suspended = await post(`/webrtc/${stream.streamKey}`);
    assert.equal(suspended.status, 403);
    assert.match((await suspended.json()).errors[0], /suspended/);
    assert.equal(
      (await post("/webrtc", offer, { "content-type": "application/sdp", authorization: `Bearer ${stream.streamKey}` })).status,
      403,
      "the key as a Bearer token too",
    );
    assert.equal((await fetch(`${BASE}/webrtc/session/bm8.0123`, { method: "DELETE" })).status, 404);
    assert.equal((await api.get(`stream/${stream.id}`)).body.isActive, false, "nothing went live");
  });
});
