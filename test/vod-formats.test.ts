import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, describe, test } from "node:test";
import { Livepeer } from "livepeer";
import { BASE, newAccount, type Api } from "./support/client";
import { decodes, ffprobe } from "./support/media";
import { digestOf, download, firstSegmentUrl, makeMedia, putFile, settled, settledTask, tmpDir, transcoded, type MediaKind } from "./support/vod";

const tmp = tmpDir();
/** Short and small: 2 s at 320x240 or less, so that the formats, all at once, stay quick on 2 cores. */
const SECONDS = 2;
/** Every format at once on a busy 2-core machine: a generous wait. */
const READY_MS = 240_000;

const servers: http.Server[] = [];
after(() => servers.forEach((s) => s.close()));

interface Accepted {
  kind: MediaKind;
  size?: string;
  /** videoSpec as reported: the real container and codecs, the picture as shown. */
  format: string;
  video: string;
  audio?: string;
  width: number;
  height: number;
  contentType: string;
  /** Browsers play the original as it is: remuxed, and listed as an MP4 source in playback info. */
  remuxed?: boolean;
}

const ACCEPTED: Record<string, Accepted> = {
  "an iPhone's portrait HEVC MOV (rotated 90° by its display matrix)": {
    kind: "phone-hevc",
    size: "320x240",
    format: "mov",
    video: "hevc",
    audio: "aac",
    width: 240,
    height: 320,
    contentType: "video/quicktime",
  },
  "VP9 + Opus WebM at an odd size": {
    kind: "webm",
    size: "321x241",
    format: "webm",
    video: "vp9",
    audio: "opus",
    width: 321,
    height: 241,
    contentType: "video/webm",
  },
  "AV1 + Opus WebM": { kind: "av1", size: "320x240", format: "webm", video: "av1", audio: "opus", width: 320, height: 240, contentType: "video/webm" },
  "MKV with H.264 and MP3 audio": {
    kind: "mkv-mp3",
    size: "320x240",
    format: "mkv",
    video: "h264",
    audio: "mp3",
    width: 320,
    height: 240,
    contentType: "video/x-matroska",
  },
  "ProRes MOV with PCM audio": {
    kind: "prores",
    size: "320x240",
    format: "mov",
    video: "prores",
    audio: "pcm_s16le",
    width: 320,
    height: 240,
    contentType: "video/quicktime",
  },
  "H.264 MP4 with no audio track": {
    kind: "no-audio",
    size: "320x240",
    format: "mp4",
    video: "h264",
    width: 320,
    height: 240,
    contentType: "video/mp4",
    remuxed: true,
  },
};

/** The HLS `source` variant's first segment, probed: what every player gets first. */
async function sourceSegment(playbackUrl: string, name: string) {
  const master = await (await fetch(playbackUrl)).text();
  assert.match(master, /#EXT-X-STREAM-INF:[^\n]*\nsource\.m3u8/, `the source variant is in the master:\n${master}`);
  const seg = path.join(tmp, `${name}-source.ts`);
  await download(await firstSegmentUrl(new URL("source.m3u8", playbackUrl).toString()), seg);
  await decodes(seg);
  return ffprobe(seg);
}

async function uploadByPut(api: Api, file: string, name: string) {
  const requested = await api.post("asset/request-upload", { name });
  assert.equal(requested.status, 200, JSON.stringify(requested.body));
  const put = await putFile(requested.body.url, file);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return requested.body as { asset: { id: string }; task: { id: string } };
}

/** The checks every accepted format must pass: ready, plays H.264/AAC from HLS, downloads as uploaded. */
async function assertPlayable(api: Api, assetId: string, file: string, c: Accepted, name: string) {
  const ready = await settled(api, assetId, READY_MS);
  assert.equal(ready.status.phase, "ready", `${name}: ${ready.status.errorMessage}`);
  const spec = ready.videoSpec;
  const video = spec.tracks.find((t: { type: string }) => t.type === "video");
  const audio = spec.tracks.find((t: { type: string }) => t.type === "audio");
  assert.deepEqual([spec.format, video.codec, video.width, video.height], [c.format, c.video, c.width, c.height], name);
  assert.equal(audio?.codec, c.audio, name);
  assert.ok(Math.abs(spec.duration - SECONDS) < 0.2, `${name}: duration ${spec.duration}`);

  const probe = await sourceSegment(ready.playbackUrl, c.kind);
  const v = probe.streams.find((s) => s.codec_type === "video")!;
  const a = probe.streams.find((s) => s.codec_type === "audio");
  // Upright, at the source's size made even (4:2:0 H.264 needs it).
  assert.deepEqual([v.codec_name, v.pix_fmt, v.width, v.height], ["h264", "yuv420p", c.width & ~1, c.height & ~1], name);
  assert.equal(a?.codec_name, c.audio ? "aac" : undefined, name);

  const local = digestOf(file);
  const got = path.join(tmp, `${c.kind}-download`);
  const res = await download(ready.downloadUrl, got);
  assert.equal(digestOf(got).sha256, local.sha256, `${name}: the download is the original`);
  assert.equal(res.headers.get("content-type"), c.contentType, name);

  const info = await (await fetch(`${BASE}/api/playback/${ready.playbackId}`)).json();
  const mp4s = info.meta.source.filter((s: { type: string }) => s.type === "html5/video/mp4").map((s: { url: string }) => s.url);
  assert.equal(mp4s.includes(ready.downloadUrl), Boolean(c.remuxed), `${name}: the original is offered to players only when they play it`);
  return ready;
}

describe("every video a phone or camera makes", { concurrency: true }, () => {
  for (const [name, c] of Object.entries(ACCEPTED)) {
    test(`${name}: a pre-signed PUT becomes ready, plays H.264 from HLS, downloads as uploaded`, async () => {
      const api = await newAccount();
      const file = await makeMedia(tmp, c.kind, { seconds: SECONDS, size: c.size });
      const { asset, task } = await uploadByPut(api, file, name);
      await assertPlayable(api, asset.id, file, c, name);
      const done = (await api.get(`task/${task.id}`)).body;
      assert.equal(done.status.phase, "completed", name);
      assert.equal(done.output.import.assetSpec.videoSpec.format, c.format, name);
    });
  }

  test("HDR10 (10-bit HEVC, BT.2020 PQ) is tone-mapped: its H.264 source and ladder are SDR BT.709, 8-bit", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "hdr", { seconds: SECONDS, size: "320x240" });
    assert.equal((await ffprobe(file)).streams[0].color_transfer, "smpte2084");
    const { asset } = await uploadByPut(api, file, "hdr");
    const c: Accepted = { kind: "hdr", format: "mp4", video: "hevc", audio: "aac", width: 320, height: 240, contentType: "video/mp4" };
    const ready = await assertPlayable(api, asset.id, file, c, "hdr");
    assert.equal(ready.videoSpec.tracks[0].pixelFormat, "yuv420p10le", "the source is reported as it is");
    const sdr = (s: { color_transfer?: string; color_primaries?: string; pix_fmt?: string }) => [s.color_transfer, s.color_primaries, s.pix_fmt];
    const source = (await sourceSegment(ready.playbackUrl, "hdr-again")).streams.find((s) => s.codec_type === "video")!;
    assert.deepEqual(sdr(source), ["bt709", "bt709", "yuv420p"]);

    const done = await transcoded(api, asset.id, READY_MS);
    const rendition = done.renditions.find((r: { phase: string }) => r.phase === "ready");
    assert.ok(rendition, JSON.stringify(done.renditions));
    const seg = path.join(tmp, "hdr-rendition.ts");
    await download(await firstSegmentUrl(new URL(`${rendition.name}/index.m3u8`, done.playbackUrl).toString()), seg);
    const video = (await ffprobe(seg)).streams.find((s) => s.codec_type === "video")!;
    assert.deepEqual([video.codec_name, ...sdr(video)], ["h264", "bt709", "bt709", "yuv420p"]);
  });

  test("an import of a VP9 WebM is accepted as an upload is, and the SDK reads its videoSpec", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "webm", { seconds: SECONDS, size: "320x240" });
    const server = http.createServer((req, res) => {
      if (req.url !== "/clip.webm") return res.writeHead(404).end();
      res.writeHead(200, { "content-type": "video/webm", "content-length": fs.statSync(file).size });
      fs.createReadStream(file).pipe(res);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/clip.webm`;
    const imported = await api.post("asset/import", { url, name: "imported webm" });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const c: Accepted = { kind: "webm", format: "webm", video: "vp9", audio: "opus", width: 320, height: 240, contentType: "video/webm" };
    await assertPlayable(api, imported.body.asset.id, file, c, "imported webm");
    assert.equal((await settledTask(api, imported.body.task.id)).status.phase, "completed");

    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const asset = (await sdk.asset.get(imported.body.asset.id)).asset!;
    assert.equal(asset.videoSpec?.format, "webm");
    assert.deepEqual(
      asset.videoSpec?.tracks?.map((t) => t.codec),
      ["vp9", "opus"],
    );
  });

  test("what has no video or cannot be decoded fails, asset and task, with a message naming what was found", async () => {
    const api = await newAccount();
    const cases: { kind: MediaKind; expect: RegExp }[] = [
      { kind: "mp3", expect: /^No video stream: the file holds only audio \(mp3\)\./ },
      { kind: "audio-only", expect: /^No video stream: the file holds only audio \(aac\)\./ },
      { kind: "truncated", expect: /^Cannot be decoded: found MP4 with video h264 and audio aac, but no picture of its video could be decoded/ },
      { kind: "random", expect: /^Cannot be decoded: it is not a video file ffmpeg recognises\./ },
    ];
    await Promise.all(
      cases.map(async ({ kind, expect }) => {
        const file = await makeMedia(tmp, kind, { seconds: SECONDS, size: "320x240" });
        const { asset, task } = await uploadByPut(api, file, kind);
        const failed = await settled(api, asset.id, READY_MS);
        assert.equal(failed.status.phase, "failed", kind);
        assert.match(failed.status.errorMessage, expect, kind);
        assert.equal(failed.playbackUrl, undefined, kind);
        assert.equal(failed.downloadUrl, undefined, kind);
        const t = (await api.get(`task/${task.id}`)).body;
        assert.equal(t.status.phase, "failed", kind);
        assert.equal(t.status.errorMessage, failed.status.errorMessage, kind);
      }),
    );
  });
});
