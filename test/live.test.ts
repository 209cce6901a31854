import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { newAccount } from "./support/client";
import { decodes, ffprobe, publish, rtmpReceiver, rtmpUrl, streamActive as active, streamIdle as idle, until } from "./support/media";
import { startReceiver, type Received } from "./support/receiver";
import { freePort } from "@/lib/net/free-port";
import { frameRate } from "@/lib/av/probe";

const LADDER = [
  { name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 },
  { name: "160p", width: 284, height: 160, bitrate: 200_000, fps: 15 },
];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "castline-live-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function download(url: string, name: string) {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  const file = path.join(tmp, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, res };
}

const eventsOf = (rx: { received: Received[] }) => rx.received.map((r) => String(r.json.event));

describe("live streaming", { concurrency: false }, () => {
  test("a broadcast goes live with its ladder, plays, counts segments, and goes idle when it stops", async () => {
    const api = await newAccount();
    const rx = await startReceiver();
    await api.post("webhook", { name: "rx", url: rx.url, events: ["stream.started", "stream.idle"] });
    const stream = (await api.post("stream", { name: "show", profiles: LADDER })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await active(api, stream.id);
      const [started] = await rx.waitFor(1);
      assert.equal(started.json.event, "stream.started");
      assert.equal(started.json.stream.id, stream.id);

      const playback = (await api.get(`playback/${stream.playbackId}`)).body;
      assert.equal(playback.type, "live");
      assert.equal(playback.meta.live, 1);
      const master = await (await fetch(playback.meta.source[0].url)).text();
      const variants = [...master.matchAll(/#EXT-X-STREAM-INF:(.*)\n(.*)/g)].map(([, attrs, uri]) => ({ attrs, uri }));
      assert.deepEqual(
        variants.map((v) => /RESOLUTION=(\d+x\d+)/.exec(v.attrs)?.[1]),
        ["640x360", "426x240", "284x160"],
        "source plus each profile",
      );
      for (const v of variants) {
        assert.match(v.attrs, /BANDWIDTH=\d+/);
        assert.match(v.attrs, /CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
      }
      const base = playback.meta.source[0].url.replace(/index\.m3u8$/, "");
      for (const [i, v] of variants.entries()) {
        const media = await (await fetch(base + v.uri)).text();
        const segment = media
          .split("\n")
          .filter((l) => l && !l.startsWith("#"))
          .at(-1)!;
        const { file, res } = await download(base + v.uri.replace("index.m3u8", segment), `seg-${i}.ts`);
        assert.equal(res.headers.get("content-type"), "video/mp2t");
        assert.equal(res.headers.get("access-control-allow-origin"), "*");
        await decodes(file);
        const video = (await ffprobe(file)).streams.find((s) => s.codec_type === "video")!;
        assert.equal(`${video.width}x${video.height}`, /RESOLUTION=(\d+x\d+)/.exec(v.attrs)![1]);
      }

      const health = await until("ingest health", async () => (await api.get(`stream/${stream.id}`)).body.health);
      assert.ok(health.bitrateKbps > 0 && health.fps > 0);
      const [session] = await until("counted segments", async () => {
        const list = (await api.get(`stream/${stream.id}/sessions`)).body;
        return list[0]?.sourceSegments > 0 && list[0]?.transcodedSegments > 0 ? list : undefined;
      });
      assert.equal(session.isActive, true);
      assert.ok(session.sourceSegmentsDuration > 0);
    } finally {
      await broadcaster.stop();
    }
    await idle(api, stream.id);
    await rx.waitFor(2);
    assert.deepEqual(eventsOf(rx), ["stream.started", "stream.idle"]);
    assert.equal((await api.get(`playback/${stream.playbackId}`)).body.meta.live, 0);
    assert.equal((await fetch(new URL(`/hls/${stream.playbackId}/index.m3u8`, process.env.CASTLINE_URL))).status, 404);
    const [ended] = (await api.get(`stream/${stream.id}/sessions`)).body;
    assert.equal(ended.isActive, false);
    await rx.close();
  });

  test("an unknown stream key is refused", async () => {
    const broadcaster = publish(rtmpUrl("nope-nope-nope-nope"));
    const code = await Promise.race([broadcaster.exited, new Promise((r) => setTimeout(() => r("still running"), 8000))]);
    await broadcaster.stop();
    assert.notEqual(code, "still running");
    assert.notEqual(code, 0);
  });

  test("suspending a live stream cuts the broadcast within 2 s and refuses new publishes", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "to suspend" })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey));
    await active(api, stream.id);
    const t0 = Date.now();
    assert.equal((await api.patch(`stream/${stream.id}`, { suspended: true })).status, 204);
    await broadcaster.exited;
    const cutAfter = Date.now() - t0;
    assert.ok(cutAfter < 2000, `cut after ${cutAfter} ms`);
    await idle(api, stream.id);

    const again = publish(rtmpUrl(stream.streamKey));
    const code = await Promise.race([again.exited, new Promise((r) => setTimeout(() => r("still running"), 8000))]);
    await again.stop();
    assert.notEqual(code, "still running", "a suspended stream's publish is refused");
    assert.equal((await api.get(`stream/${stream.id}/sessions`)).body.length, 1);
  });

  test("a recorded broadcast that reconnects within the window stays one session, then becomes an asset", async () => {
    const api = await newAccount();
    const rx = await startReceiver();
    await api.post("webhook", { name: "rx", url: rx.url, events: ["recording.started", "recording.waiting", "recording.ready", "asset.ready"] });
    const stream = (await api.post("stream", { name: "recorded", record: true })).body;

    let broadcaster = publish(rtmpUrl(stream.streamKey));
    await active(api, stream.id);
    await new Promise((r) => setTimeout(r, 4000));
    await broadcaster.stop();
    await idle(api, stream.id);
    const [waiting] = (await api.get(`stream/${stream.id}/sessions`)).body;
    assert.equal(waiting.recordingStatus, "waiting");
    const playlist = await (await fetch(waiting.recordingUrl)).text();
    assert.match(playlist, /#EXT-X-ENDLIST/, "the recording plays the moment the broadcast ends");

    broadcaster = publish(rtmpUrl(stream.streamKey));
    await active(api, stream.id);
    await new Promise((r) => setTimeout(r, 4000));
    await broadcaster.stop();
    await idle(api, stream.id);
    const sessions = (await api.get(`stream/${stream.id}/sessions?record=1`)).body;
    assert.equal(sessions.length, 1, "the reconnect continued the same session");
    assert.equal(sessions[0].id, waiting.id);

    const [asset] = await until(
      "the recording's asset",
      async () => {
        const list = (await api.get("asset")).body;
        return list.length && list[0].status.phase === "ready" ? list : undefined;
      },
      60_000,
      500,
    );
    assert.deepEqual(asset.source, { type: "recording", sessionId: waiting.id, streamId: stream.id });
    // The session says so once the finalizing job has marked it, just after the asset is playable.
    const ready = await until(
      "the session's recording ready",
      async () => {
        const session = (await api.get(`session/${waiting.id}`)).body;
        return session.recordingStatus === "ready" ? session : undefined;
      },
      30_000,
      500,
    );
    const { file } = await download(ready.mp4Url, "recording.mp4");
    const duration = Number((await ffprobe(file)).format.duration);
    assert.ok(duration > 5, `both parts are in the mp4 (${duration} s)`);
    assert.equal(asset.size, fs.statSync(file).size);
    const download2 = await fetch(asset.downloadUrl, { headers: { range: "bytes=0-99" } });
    assert.equal(download2.status, 206);
    await rx.waitFor(4, 20_000);
    const events = eventsOf(rx);
    for (const e of ["recording.started", "recording.waiting", "recording.ready", "asset.ready"]) assert.ok(events.includes(e), e);
    assert.equal(events.filter((e) => e === "recording.started").length, 1);
    await rx.close();
  });

  test("multistream pushes to a live target and reports a dead one", async () => {
    const api = await newAccount();
    const rx = await startReceiver();
    await api.post("webhook", { name: "rx", url: rx.url, events: ["multistream.connected", "multistream.error", "multistream.disconnected"] });
    const port = await freePort();
    const out = path.join(tmp, "target.flv");
    const remote = rtmpReceiver(port, out);
    const good = (await api.post("multistream/target", { url: `rtmp://127.0.0.1:${port}/live/target`, name: "good" })).body;
    const dead = (await api.post("multistream/target", { url: `rtmp://127.0.0.1:${await freePort()}/live/x`, name: "dead" })).body;
    const stream = (
      await api.post("stream", {
        name: "simulcast",
        multistream: {
          targets: [
            { id: good.id, profile: "source" },
            { id: dead.id, profile: "source", videoOnly: true },
          ],
        },
      })
    ).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await active(api, stream.id);
      await until(
        "connected and error events",
        async () => {
          const got = rx.received.map((r) => `${r.json.event}:${r.json.payload.target.id}`);
          return got.includes(`multistream.connected:${good.id}`) && got.includes(`multistream.error:${dead.id}`);
        },
        30_000,
      );
      const connected = rx.received.find((r) => r.json.event === "multistream.connected")!;
      assert.deepEqual(connected.json.payload.target, { id: good.id, name: "good", profile: "source" });
      await until("media at the target", async () => fs.existsSync(out) && fs.statSync(out).size > 50_000);
    } finally {
      await broadcaster.stop();
      await remote.stop();
    }
    const probe = await ffprobe(out);
    assert.ok(probe.streams.some((s) => s.codec_name === "h264"));
    await rx.close();
  });
  test("renditions and multistream pushes are never larger nor faster than the source, whatever the profiles ask", async () => {
    const api = await newAccount();
    const port = await freePort();
    const out = path.join(tmp, "capped-push.flv");
    const remote = rtmpReceiver(port, out);
    const target = (await api.post("multistream/target", { url: `rtmp://127.0.0.1:${port}/live/target`, name: "capped" })).body;
    const profiles = [
      { name: "1080p", width: 1920, height: 1080, bitrate: 6_000_000, fps: 30 },
      { name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 60 },
    ];
    const stream = (await api.post("stream", { name: "tiny", profiles, multistream: { targets: [{ id: target.id, profile: "1080p" }] } })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey), { size: "160x90", fps: 15 });
    try {
      await active(api, stream.id);
      const playback = (await api.get(`playback/${stream.playbackId}`)).body;
      const master = await (await fetch(playback.meta.source[0].url)).text();
      const variants = [...master.matchAll(/#EXT-X-STREAM-INF:(.*)\n(.*)/g)].map(([, attrs, uri]) => ({ attrs, uri }));
      assert.equal(variants.length, 3, "the source and both profiles");
      const base = playback.meta.source[0].url.replace(/index\.m3u8$/, "");
      for (const [i, v] of variants.entries()) {
        assert.equal(/RESOLUTION=(\d+x\d+)/.exec(v.attrs)?.[1], "160x90", v.uri);
        assert.ok(Number(/FRAME-RATE=([\d.]+)/.exec(v.attrs)?.[1]) <= 15, v.attrs);
        const media = await (await fetch(base + v.uri)).text();
        const segment = media
          .split("\n")
          .filter((l) => l && !l.startsWith("#"))
          .at(-1)!;
        const { file } = await download(base + v.uri.replace("index.m3u8", segment), `capped-${i}.ts`);
        const video = (await ffprobe(file)).streams.find((s) => s.codec_type === "video")!;
        assert.equal(`${video.width}x${video.height}`, "160x90", `${v.uri}: ${segment}`);
        assert.ok((frameRate(video.r_frame_rate) ?? Infinity) <= 15, `${v.uri}: ${video.r_frame_rate} fps`);
      }
      await until("media at the target", async () => fs.existsSync(out) && fs.statSync(out).size > 20_000, 30_000);
    } finally {
      await broadcaster.stop();
      await remote.stop();
    }
    const pushed = (await ffprobe(out)).streams.find((s) => s.codec_type === "video")!;
    assert.equal(`${pushed.width}x${pushed.height}`, "160x90", "the pushed 1080p profile is the source's size");
    assert.ok((frameRate(pushed.r_frame_rate) ?? Infinity) <= 15, `pushed at ${pushed.r_frame_rate} fps`);
  });

  test("profiles a node should not be asked for are a 422 that names the limit, and change nothing", async () => {
    const api = await newAccount();
    const huge = { name: "8k", width: 7680, height: 4320, bitrate: 50_000_000, fps: 240 };
    const cases: [string, unknown[], RegExp][] = [
      ["eight 8K profiles", Array.from({ length: 8 }, (_, i) => ({ ...huge, name: `p${i}` })), /^profiles: at most 6 renditions$/],
      ["an 8K profile at 240 fps", [huge], /^profiles\.0\.width: at most 3840 \(4K\)$/],
      ["a 3840x3840 square", [{ ...huge, width: 3840, height: 3840, fps: 30 }], /^profiles\.0: at most 4K: 3840x2160 pixels, or 2160x3840$/],
      ["120 fps", [{ ...huge, width: 1280, height: 720, fps: 120 }], /^profiles\.0\.fps: at most 60$/],
    ];
    for (const [what, profiles, message] of cases) {
      const res = await api.post("stream", { name: what, profiles });
      assert.equal(res.status, 422, what);
      assert.ok(
        res.body.errors.some((e: string) => message.test(e)),
        `${what}: ${res.body.errors}`,
      );
    }
    const stream = (await api.post("stream", { name: "kept", profiles: [{ ...huge, name: "4k", width: 2160, height: 3840, fps: 60 }] })).body;
    for (const [what, profiles] of cases) assert.equal((await api.patch(`stream/${stream.id}`, { profiles })).status, 422, what);
    assert.deepEqual((await api.get(`stream/${stream.id}`)).body.profiles, [{ ...huge, name: "4k", width: 2160, height: 3840, fps: 60 }]);
    assert.equal((await api.get("stream")).body.length, 1, "no refused stream was created");
  });
});
