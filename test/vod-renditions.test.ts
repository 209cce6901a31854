// biome-ignore-all format: ffmpeg command lines, each option beside its value
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, test } from "node:test";
import { Livepeer } from "livepeer";
import { BASE, newAccount, type Api } from "./support/client";
import { ffprobe, until } from "./support/media";
import { download, makeMedia, putFile, settled, tmpDir, transcoded } from "./support/vod";

const exec = promisify(execFile);
const tmp = tmpDir();

async function upload(api: Api, file: string, body: Record<string, unknown> = {}) {
  const requested = await api.post("asset/request-upload", { name: path.basename(file), ...body });
  assert.equal(requested.status, 200, JSON.stringify(requested.body));
  assert.equal((await putFile(requested.body.url, file)).status, 200);
  return requested.body as { asset: { id: string; playbackId: string }; task: { id: string } };
}

interface Variant {
  uri: string;
  attrs: string;
}

const variantsOf = (master: string): Variant[] => {
  const lines = master.split("\n");
  return lines.flatMap((l, i) => (l.startsWith("#EXT-X-STREAM-INF:") ? [{ attrs: l, uri: lines[i + 1] }] : []));
};

const segmentsOf = (playlist: string) => {
  const lines = playlist.split("\n");
  return lines.flatMap((l, i) => (l.startsWith("#EXTINF:") ? [{ duration: parseFloat(l.slice(8)), uri: lines[i + 1] }] : []));
};

async function text(url: string) {
  const res = await fetch(url);
  assert.equal(res.status, 200, `GET ${url}`);
  return res.text();
}

describe("VOD renditions", () => {
  test("a 1080p upload gets 1080p, 720p, 480p and 360p renditions, aligned, with static MP4s and seek thumbnails", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 10, size: "1920x1080" });
    const { asset, task } = await upload(api, file, { staticMp4: true });

    // Playable from the remux before any rendition, as before; and from that very moment it reads
    // as transcoding (a page that stops polling a settled asset would never show the ladder).
    // Watched closely: the moment between the two steps was tens of milliseconds.
    const ready = await settled(api, asset.id, 60_000, 10);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    assert.ok(
      ready.status.progress !== undefined || ready.renditions?.some((r: { phase: string }) => r.phase === "transcoding"),
      `a playable asset whose ladder is coming reads as transcoding: ${JSON.stringify({ status: ready.status, renditions: ready.renditions })}`,
    );
    // The upload's task ended in the same commit: whoever sees the asset playable sees its task completed.
    assert.equal((await api.get(`task/${task.id}`)).body.status.phase, "completed", "the upload's task, once its asset plays");
    const first = await text(ready.playbackUrl);
    assert.ok(variantsOf(first).some((v) => v.uri === "source.m3u8"), first);

    const done = await transcoded(api, asset.id);
    assert.deepEqual(
      done.renditions.map((r: { name: string; width: number; height: number; phase: string }) => [r.name, r.width, r.height, r.phase]),
      [["1080p", 1920, 1080, "ready"], ["720p", 1280, 720, "ready"], ["480p", 854, 480, "ready"], ["360p", 640, 360, "ready"]],
    );
    assert.equal(done.status.progress, undefined, "no progress once the ladder is done");

    // The master lists exactly the ladder (the source remux left once a rendition as tall exists).
    const master = await text(done.playbackUrl);
    const variants = variantsOf(master);
    assert.deepEqual(variants.map((v) => v.uri), ["1080p/index.m3u8", "720p/index.m3u8", "480p/index.m3u8", "360p/index.m3u8"]);
    for (const v of variants) assert.match(v.attrs, /CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/);

    // Each rendition's segments decode at its size; all have the same segments (count and durations).
    const timelines: number[][] = [];
    for (const [i, v] of variants.entries()) {
      const url = new URL(v.uri, done.playbackUrl).toString();
      const segments = segmentsOf(await text(url));
      timelines.push(segments.map((s) => Math.round(s.duration * 10) / 10));
      const seg = path.join(tmp, `r${i}.ts`);
      await download(new URL(segments[1].uri, url).toString(), seg);
      const probe = await ffprobe(seg);
      const video = probe.streams.find((s) => s.codec_type === "video")!;
      assert.equal(`${video.width}x${video.height}`, done.renditions[i].width + "x" + done.renditions[i].height);
      assert.ok(probe.streams.some((s) => s.codec_type === "audio"), "audio kept");
      await exec("ffmpeg", ["-v", "error", "-xerror", "-i", seg, "-f", "null", "-"]);
    }
    for (const t of timelines) assert.deepEqual(t, timelines[0]);
    assert.ok(Math.abs(timelines[0].reduce((a, b) => a + b, 0) - 10) < 0.2, `the renditions cover the whole source: ${timelines[0]}`);

    // The transcode-file task tracked it.
    assert.equal((await api.get(`task/${task.id}`)).body.status.phase, "completed", "the upload's own task");
    const tasks = (await api.get("task")).body as { type: string; inputAssetId?: string; status: { phase: string; progress?: number } }[];
    const transcode = tasks.find((x) => x.type === "transcode-file" && x.inputAssetId === asset.id);
    assert.equal(transcode?.status.phase, "completed");
    assert.equal(transcode?.status.progress, 1);

    // Playback info, through the official SDK: MP4s of the renditions up to 720p, thumbnails.
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const info = (await sdk.playback.get(asset.playbackId)).playbackInfo!;
    const mp4s = info.meta.source.filter((s) => s.hrn === "MP4" && s.height);
    assert.deepEqual(mp4s.map((s) => [s.height, s.width]), [[360, 640], [480, 854], [720, 1280]]);
    for (const m of mp4s) {
      assert.equal(m.type, "html5/video/mp4");
      assert.ok(m.size! > 10_000 && m.bitrate! > 0);
      const ranged = await fetch(m.url, { headers: { range: "bytes=0-99" } });
      assert.equal(ranged.status, 206);
      assert.equal((await ranged.arrayBuffer()).byteLength, 100);
    }
    const mp4 = path.join(tmp, "720p.mp4");
    await download(mp4s[2].url, mp4);
    const probe = await ffprobe(mp4);
    assert.equal(probe.streams.find((s) => s.codec_type === "video")!.height, 720);
    assert.ok(Math.abs(Number(probe.format.duration) - 10) < 0.2, `mp4 lasts ${probe.format.duration}`);
    await exec("ffmpeg", ["-v", "error", "-xerror", "-i", mp4, "-f", "null", "-"]);

    const vttSource = info.meta.source.find((s) => s.hrn === "Thumbnails");
    assert.equal(vttSource?.type, "text/vtt");
    const vtt = await text(vttSource!.url);
    assert.match(vtt, /^WEBVTT/);
    const cues = [...vtt.matchAll(/(\S+\.jpg)#xywh=(\d+),(\d+),(\d+),(\d+)/g)];
    assert.ok(cues.length >= 4, `a tile every few seconds of 10 s: ${cues.length}`);
    const sprite = path.join(tmp, "sprite.jpg");
    await download(new URL(cues[0][1], vttSource!.url).toString(), sprite);
    const sheet = (await ffprobe(sprite)).streams[0];
    const last = cues.at(-1)!.slice(2).map(Number);
    assert.ok(sheet.width! >= last[0] + last[2] && sheet.height! >= last[1] + last[3], "every tile lies on its sheet");
  });

  test("custom profiles are honoured, and a 360p source gets no upscaled rendition", async () => {
    const api = await newAccount();
    const small = await makeMedia(tmp, "mp4", { seconds: 4, size: "640x360" });

    const custom = await upload(api, small, {
      profiles: [{ name: "tiny", width: 320, height: 180, bitrate: 250_000, fps: 15 }, { name: "mid", height: 270, bitrate: 500_000 }],
    });
    const defaulted = await upload(api, small);

    const c = await transcoded(api, custom.asset.id);
    assert.deepEqual(c.renditions.map((r: { name: string; width: number; height: number; fps: number }) => [r.name, r.width, r.height, r.fps]), [
      ["mid", 480, 270, 30],
      ["tiny", 320, 180, 15],
    ]);
    const tiny = segmentsOf(await text(new URL("tiny/index.m3u8", c.playbackUrl).toString()));
    const seg = path.join(tmp, "tiny.ts");
    await download(new URL(`tiny/${tiny[0].uri}`, c.playbackUrl).toString(), seg);
    const video = (await ffprobe(seg)).streams.find((s) => s.codec_type === "video")!;
    assert.deepEqual([video.width, video.height, (video as { avg_frame_rate?: string }).avg_frame_rate], [320, 180, "15/1"]);
    // Custom renditions are all shorter than the source: its remux stays in the master.
    assert.deepEqual(variantsOf(await text(c.playbackUrl)).map((v) => v.uri).sort(), ["mid/index.m3u8", "source.m3u8", "tiny/index.m3u8"]);

    const d = await transcoded(api, defaulted.asset.id);
    assert.deepEqual(d.renditions.map((r: { name: string; height: number }) => [r.name, r.height]), [["360p", 360]]);

    // A short video with one keyframe still gets its seek previews (decoded whole).
    const oneKeyframe = path.join(tmp, "one-keyframe.mp4");
    await exec("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=3", "-f", "lavfi", "-i", "sine=duration=3", "-c:v", "libx264", "-g", "300", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", oneKeyframe]);
    const short = await upload(api, oneKeyframe);
    const vtt = await until("the short video's thumbnails", async () => {
      const info = (await api.get(`playback/${short.asset.playbackId}`)).body;
      const track = info.meta?.source?.find((s: { hrn: string }) => s.hrn === "Thumbnails");
      return track ? text(track.url) : undefined;
    }, 60_000, 300);
    assert.ok([...vtt.matchAll(/#xywh=/g)].length >= 1, vtt);
  });

  test("bad profiles are refused with a 422 and create nothing", async () => {
    const api = await newAccount();
    const count = async () => {
      const list = await api.get("asset");
      assert.equal(list.status, 200);
      return (list.body as unknown[]).length;
    };
    const before = await count();
    for (const profiles of [
      [{ name: "x", width: 640, height: 360 }],
      [{ name: "x", width: 640, height: 360, bitrate: 1_000_000, encoder: "VP9" }],
      [{ name: "../x", height: 360, bitrate: 1_000_000 }],
      [{ name: "source", height: 360, bitrate: 1_000_000 }],
      [{ height: 360, bitrate: 1_000_000 }, { height: 360, bitrate: 2_000_000 }],
      [],
    ]) {
      const res = await api.post("asset/request-upload", { name: "bad", profiles });
      assert.equal(res.status, 422, JSON.stringify(profiles));
      const imp = await api.post("asset/import", { name: "bad", url: "https://example.com/a.mp4", profiles });
      assert.equal(imp.status, 422, JSON.stringify(profiles));
    }
    assert.equal(await count(), before);
  });
});
