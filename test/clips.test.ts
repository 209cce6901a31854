// biome-ignore-all format: ffmpeg command lines, each option beside its value
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { promisify } from "node:util";
import { Livepeer } from "livepeer";
import { BASE, newAccount, type Api } from "./support/client";
import { decodes, ffprobe, publish, rtmpUrl, streamActive, streamIdle, until, type Running } from "./support/media";
import { download, putFile, settled, settledTask, tmpDir } from "./support/vod";

const exec = promisify(execFile);
const tmp = tmpDir();
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const FPS = 30;
const FRAME_MS = 1000 / FPS;

/** The video frames of a file: their count and presentation times (s). */
async function frameTimes(file: string): Promise<number[]> {
  const { stdout } = await exec("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", file]);
  return stdout.split("\n").filter(Boolean).map(Number).sort((a, b) => a - b);
}

/** PSNR (dB) between frame `a` of one file and frame `b` of another (indexes in presentation order). */
async function psnr(fileA: string, a: number, fileB: string, b: number): Promise<number> {
  const pick = (i: number, n: number) => `[${i}:v]trim=start_frame=${n}:end_frame=${n + 1},setpts=PTS-STARTPTS,format=yuv420p[f${i}]`;
  const { stderr } = await exec("ffmpeg", ["-hide_banner", "-i", fileA, "-i", fileB, "-lavfi", `${pick(0, a)};${pick(1, b)};[f0][f1]psnr`, "-f", "null", "-"]);
  const value = /average:(inf|[\d.]+)/.exec(stderr)?.[1];
  assert.ok(value, `no PSNR in: ${stderr.slice(-300)}`);
  return value === "inf" ? 100 : Number(value);
}

/**
 * The clip's first frame is the source's frame nearest to the asked start (re-encoded
 * edges are not bit-identical: compared by PSNR, and against the neighbouring frames so
 * that a clip one frame off fails), and its video lasts the asked time within a frame.
 */
async function assertClipOf(clip: string, source: string, sourceFrame: number, askedMs: number) {
  await decodes(clip);
  const times = await frameTimes(clip);
  const durationMs = times.length * FRAME_MS;
  assert.ok(Math.abs(durationMs - askedMs) <= FRAME_MS + 1, `clip lasts ${durationMs.toFixed(1)} ms, asked ${askedMs} ms`);
  const same = await psnr(clip, 0, source, sourceFrame);
  const before = await psnr(clip, 0, source, sourceFrame - 1);
  const next = await psnr(clip, 0, source, sourceFrame + 1);
  assert.ok(same > 35, `first frame vs the source's frame at startTime: ${same.toFixed(1)} dB`);
  assert.ok(same > before + 3 && same > next + 3, `first frame matches the neighbours better: ${before.toFixed(1)} / ${same.toFixed(1)} / ${next.toFixed(1)} dB`);
}

/** Segments of an HLS media playlist with their wall-clock starts (EXT-X-PROGRAM-DATE-TIME). */
function timedSegments(playlist: string, base: string) {
  const out: { url: string; startedAt: number; duration: number }[] = [];
  let startedAt: number | undefined;
  let duration = 0;
  for (const line of playlist.split("\n")) {
    if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) startedAt = Date.parse(line.slice(25).replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    else if (line.startsWith("#EXTINF:")) duration = parseFloat(line.slice(8));
    else if (line && !line.startsWith("#")) {
      assert.ok(startedAt, `segment ${line} has no EXT-X-PROGRAM-DATE-TIME`);
      out.push({ url: new URL(line, base).toString(), startedAt, duration });
      startedAt = undefined;
    }
  }
  return out;
}

/** The frame of a segment shown nearest `offsetMs` after its start (its earliest timestamp, audio or video, as players take it). */
async function frameNear(segment: string, offsetMs: number) {
  const times = await frameTimes(segment);
  const { stdout } = await exec("ffprobe", ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", segment]);
  const at = Number(stdout.trim()) + offsetMs / 1000;
  return times.reduce((best, t, i) => (Math.abs(t - at) < Math.abs(times[best] - at) ? i : best), 0);
}

async function readyClip(api: Api, created: { asset: { id: string }; task: { id: string } }, name: string) {
  const task = await settledTask(api, created.task.id, 240_000);
  assert.equal(task.status.phase, "completed", JSON.stringify(task.status));
  assert.equal(task.type, "clip");
  const asset = await settled(api, created.asset.id, 120_000);
  assert.equal(asset.status.phase, "ready", JSON.stringify(asset.status));
  const file = path.join(tmp, name);
  await download(asset.downloadUrl, file);
  return { asset, file };
}

const clipsOf = async (api: Api) => {
  const [assets, tasks] = await Promise.all([api.get("asset"), api.get("task")]);
  return {
    assets: assets.body.filter((a: { source: { type: string } }) => a.source.type === "clip").length,
    tasks: tasks.body.filter((t: { type: string }) => t.type === "clip").length,
  };
};

/**
 * One recorded broadcast serves the two stream tests (started by whichever runs first, ended by
 * the live/recording one): its media at 0.3 of real time, as an overloaded encoder or a
 * congested uplink sends it, so that the stream's timeline falls behind the wall clock by
 * 0.7 s every second. The clips the first test makes are listed with the stream's.
 */
let broadcast: Promise<{ api: Api; stream: { id: string; playbackId: string }; broadcaster: Running; clipIds: string[] }> | undefined;
const slowBroadcast = () =>
  (broadcast ??= (async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "clipped", record: true })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey), { fps: FPS, speed: 0.3 });
    await streamActive(api, stream.id);
    return { api, stream, broadcaster, clipIds: [] as string[] };
  })());
after(async () => {
  if (broadcast) await (await broadcast).broadcaster.stop();
});

describe("clips", { concurrency: false }, () => {
  test("a clip of an asset starts on the asked frame and lasts the asked time; bad asset clips are refused", async () => {
    const api = await newAccount();
    // B-frames and 2 s GOPs, as encoders make them: the cut copies whole GOPs and re-encodes the edges.
    const source = path.join(tmp, "source.mp4");
    await exec("ffmpeg", [
      "-hide_banner", "-loglevel", "error", "-y",
      "-f", "lavfi", "-i", `testsrc2=size=640x360:rate=${FPS}:duration=12`, "-f", "lavfi", "-i", "sine=frequency=440:duration=12",
      "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", source,
    ]);
    const upload = (await api.post("asset/request-upload", { name: "source" })).body;
    assert.equal((await putFile(upload.url, source)).status, 200);
    const original = await settled(api, upload.asset.id);
    assert.equal(original.status.phase, "ready");

    const created = await api.post("clip", { playbackId: original.playbackId, startTime: 2345, endTime: 7890, name: "my clip" });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.task.type, "clip");
    assert.deepEqual(created.body.asset.source, { type: "clip", sourceId: original.id, playbackId: original.playbackId, assetId: original.id });
    assert.equal(created.body.asset.name, "my clip");
    const { asset, file } = await readyClip(api, created.body, "asset-clip.mp4");
    assert.ok(asset.playbackUrl, "the clip plays as HLS like any asset");
    await assertClipOf(file, source, Math.round(2.345 * FPS), 7890 - 2345);

    const before = await clipsOf(api);
    const other = await newAccount();
    const refusals: [Api, unknown, number, RegExp?][] = [
      [api, { playbackId: original.playbackId, startTime: 5000, endTime: 4000 }, 400, /after startTime/],
      [api, { playbackId: original.playbackId, startTime: 5000, endTime: 5000 }, 400, /after startTime/],
      [api, { playbackId: original.playbackId, startTime: 5000, endTime: 60_000 }, 400, /after the end of the asset/],
      [api, { playbackId: original.playbackId, startTime: 20_000 }, 400],
      [api, { playbackId: original.playbackId, startTime: 0, endTime: 7_300_000 }, 400, /at most 7200 s/],
      [api, { playbackId: original.playbackId, startTime: 1000, sessionId: "x" }, 400, /sessionId/],
      [api, { playbackId: original.playbackId }, 422],
      [api, { playbackId: original.playbackId, startTime: -5 }, 422],
      [api, { playbackId: original.playbackId, startTime: "soon" }, 422],
      [api, { playbackId: "nope-nope", startTime: 0 }, 404],
      [other, { playbackId: original.playbackId, startTime: 0, endTime: 1000 }, 404],
    ];
    for (const [who, body, status, message] of refusals) {
      const res = await who.post("clip", body);
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.ok(Array.isArray(res.body.errors) && res.body.errors.length, JSON.stringify(res.body));
      if (message) assert.match(res.body.errors.join(" "), message);
    }
    assert.deepEqual(await clipsOf(api), before, "no refused clip left an asset or a task");
    assert.deepEqual(await clipsOf(other), { assets: 0, tasks: 0 });
  });

  test("the end of a stream whose media runs behind the wall clock: a range by the clock is refused, one ending at the live edge is cut there", async () => {
    const { api, stream, clipIds } = await slowBroadcast();
    const [live] = (await api.get(`stream/${stream.id}/sessions`)).body;
    // While live, a clip may end up to 16 s past the live edge (three 2 s segments and 10 s,
    // that its job waits for them): a range by the clock is refused once the media is further
    // behind than that. 20 s, as a segment stored moves the edge 2 s forward at once.
    const session = await until("8 s of media, more than 20 s behind the clock", async () => {
      const s = (await api.get(`session/${live.id}`)).body;
      const kept = s.clippable;
      return kept && kept.endTime - kept.startTime >= 8000 && Date.now() - kept.endTime > 20_000 ? s : undefined;
    }, 180_000, 1000);
    const edge = session.clippable.endTime;
    const before = await clipsOf(api);

    // The browser's last 30 s (what the dashboard asked before): it ends past what the stream has, and the answer says why.
    const now = Date.now();
    const byClock = await api.post("clip", { playbackId: stream.playbackId, startTime: now - 30_000, endTime: now });
    assert.equal(byClock.status, 400, JSON.stringify(byClock.body));
    assert.match(byClock.body.errors.join(" "), /live edge.*behind this server's clock/);
    assert.deepEqual(await clipsOf(api), before, "the refused clip left nothing");

    // The last 5 s of what the stream has (the dashboard's last 30 s, in e2e/clips.spec.ts).
    const created = await api.post("clip", { playbackId: stream.playbackId, sessionId: session.id, startTime: edge - 5000, endTime: edge });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { asset, file } = await readyClip(api, created.body, "behind.mp4");
    clipIds.push(asset.id);
    await decodes(file);
    const frames = (await frameTimes(file)).length;
    assert.ok(Math.abs(frames * FRAME_MS - 5000) <= FRAME_MS + 1, `the clip lasts ${((frames * FRAME_MS) / 1000).toFixed(3)} s, asked 5 s`);
    const probed = Number((await ffprobe(file)).format.duration);
    assert.ok(Math.abs(probed - 5) < 0.1, `ffprobe: ${probed} s`);

    // Without endTime a live clip ends at the live edge, not at the wall clock's now.
    const open = await api.post("clip", { playbackId: stream.playbackId, startTime: edge - 3000 });
    assert.equal(open.status, 200, JSON.stringify(open.body));
    const openEnd = open.body.task.params.clip.clipStrategy.endTime;
    const edgeAfter = (await api.get(`session/${live.id}`)).body.clippable.endTime;
    assert.ok(openEnd >= edge && openEnd <= edgeAfter && openEnd < Date.now() - 15_000, `defaulted endTime ${openEnd}: edge ${edge} then ${edgeAfter}, now ${Date.now()}`);
    clipIds.push((await readyClip(api, open.body, "behind-open.mp4")).asset.id);
  });

  test("clips of a live stream (its DVR) and of its recording, through the SDK; a live thumbnail; bad stream clips refused", async () => {
    const { api, stream, broadcaster, clipIds } = await slowBroadcast();
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const neverLive = (await api.post("stream", { name: "never live" })).body;
    let sessionId: string;
    let liveClipId: string;
    try {
      const playback = (await api.get(`playback/${stream.playbackId}`)).body;
      const master = await (await fetch(playback.meta.source[0].url)).text();
      const sourceUri = master.split("\n").find((l) => l && !l.startsWith("#"))!;
      const mediaUrl = new URL(sourceUri, playback.meta.source[0].url).toString();
      const segments = await until("four live segments", async () => {
        const list = timedSegments(await (await fetch(mediaUrl)).text(), mediaUrl);
        return list.length >= 4 ? list : undefined;
      }, 120_000);

      // Times as a player shows them: a segment's EXT-X-PROGRAM-DATE-TIME plus the offset into it.
      const startTime = segments[1].startedAt + 700;
      const clip = await sdk.stream.createClip({ playbackId: stream.playbackId, startTime, endTime: startTime + 4000, name: "live moment" });
      assert.equal(clip.statusCode, 200);
      const created = clip.data!;
      assert.equal(created.asset.source.type, "clip");
      const reference = path.join(tmp, "live-seg.ts");
      await download(segments[1].url, reference);
      const { asset, file } = await readyClip(api, { asset: { id: created.asset.id! }, task: { id: created.task.id! } }, "live-clip.mp4");
      sessionId = asset.source.sessionId;
      liveClipId = asset.id;
      assert.ok(sessionId);
      await assertClipOf(file, reference, await frameNear(reference, 700), 4000);

      const thumbnail = await until("a live thumbnail", async () => {
        const info = (await api.get(`playback/${stream.playbackId}`)).body;
        return info.meta.source.find((s: { hrn: string }) => s.hrn === "Thumbnail (JPEG)");
      }, 20_000);
      assert.equal(thumbnail.type, "image/jpeg");
      const jpeg = await fetch(thumbnail.url);
      assert.equal(jpeg.status, 200);
      assert.equal(jpeg.headers.get("content-type"), "image/jpeg");
      const jpegFile = path.join(tmp, "thumb.jpg");
      fs.writeFileSync(jpegFile, Buffer.from(await jpeg.arrayBuffer()));
      const { stdout } = await exec("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width", "-of", "csv=p=0", jpegFile]);
      assert.equal(stdout.trim(), "mjpeg,480");
      const info = await sdk.playback.get(stream.playbackId);
      assert.ok(info.playbackInfo!.meta.source.some((s) => s.hrn === "Thumbnail (JPEG)"), "the SDK accepts the thumbnail source");
    } finally {
      await broadcaster.stop();
    }
    await streamIdle(api, stream.id);
    const gone = (await api.get(`playback/${stream.playbackId}`)).body;
    assert.equal(gone.meta.source.length, 0, "no thumbnail once the stream is idle");

    // The ended session's recording, in the times its playlist shows.
    const session = (await api.get(`session/${sessionId}`)).body;
    const recording = timedSegments(await (await fetch(session.recordingUrl)).text(), session.recordingUrl);
    assert.ok(recording.length >= 4, `${recording.length} recorded segments`);
    const recStart = recording[2].startedAt + 500;
    const fromRecording = (await sdk.stream.createClip({ playbackId: stream.playbackId, sessionId, startTime: recStart, endTime: recStart + 3000 })).data!;
    const recReference = path.join(tmp, "rec-seg.ts");
    await download(recording[2].url, recReference);
    const recorded = await readyClip(api, { asset: { id: fromRecording.asset.id! }, task: { id: fromRecording.task.id! } }, "rec-clip.mp4");
    assert.equal(recorded.asset.source.sessionId, sessionId);
    await assertClipOf(recorded.file, recReference, await frameNear(recReference, 500), 3000);

    const streamClips = (await sdk.stream.getClips(stream.id)).data!;
    assert.deepEqual(streamClips.map((a) => a.id), [recorded.asset.id, liveClipId, ...[...clipIds].reverse()], "newest first");
    const sessionClips = (await sdk.session.getClips(sessionId)).data!;
    assert.equal(sessionClips.length, 2 + clipIds.length);
    assert.ok(sessionClips.every((a) => a.source.type === "clip"));

    const end = recording.at(-1)!.startedAt + recording.at(-1)!.duration * 1000;
    const before = await clipsOf(api);
    const other = await newAccount();
    const refusals: [Api, unknown, number, RegExp?][] = [
      [api, { playbackId: stream.playbackId, sessionId, startTime: recStart, endTime: recStart - 1000 }, 400, /after startTime/],
      [api, { playbackId: stream.playbackId, sessionId, startTime: recording[0].startedAt - 60_000, endTime: recStart }, 400, /before the oldest/],
      [api, { playbackId: stream.playbackId, sessionId, startTime: recStart, endTime: end + 60_000 }, 400, /after the end of the session/],
      [api, { playbackId: stream.playbackId, sessionId, startTime: end + 10_000, endTime: end + 20_000 }, 400],
      [api, { playbackId: stream.playbackId, sessionId, startTime: recStart, endTime: recStart + 7_201_000 }, 400, /at most 7200 s/],
      [api, { playbackId: stream.playbackId, sessionId: "no-such-session", startTime: recStart }, 404],
      [api, { playbackId: neverLive.playbackId, startTime: recStart }, 400, /never been live/],
      [other, { playbackId: stream.playbackId, startTime: recStart, endTime: recStart + 1000 }, 404],
      [other, { playbackId: neverLive.playbackId, sessionId, startTime: recStart }, 404],
    ];
    for (const [who, body, status, message] of refusals) {
      const res = await who.post("clip", body);
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      if (message) assert.match(res.body.errors.join(" "), message);
    }
    assert.deepEqual(await clipsOf(api), before, "no refused clip left an asset or a task");
    assert.equal((await other.get(`stream/${stream.id}/clips`)).status, 404);
    assert.equal((await other.get(`session/${sessionId}/clips`)).status, 404);
  });
});
