import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { parseMediaPlaylist } from "@/lib/av/hls";
import { BACKGROUND_NICENESS, DEFERRED_NICENESS } from "@/lib/av/machine";
import { makeAdmin } from "./support/cli";
import { BASE, newAccount, type Api } from "./support/client";
import { cpuHog, makeBroadcastClip, publishFile, RTMP_PORT, rtmpUrl, until } from "./support/media";
import { makeMedia, putFile } from "./support/vod";

// npm test: alone (it saturates the CPU on purpose)

/**
 * The issue's setup: a 720p30 source with 480p and 360p renditions on one node, a machine
 * saturated at normal priority beside it, and the platform's own VOD transcoding on the same
 * machine. The encoder sends a pre-encoded clip as it is (a real one runs elsewhere; this one
 * must not be slowed by the machine it reports on). The machine is shared: busy loops are
 * added every HOG_EVERY_MS (FIRST_HOGS, then 2 more), only until the node says it cannot
 * keep up. How many that takes depends on the machine (8 were not enough on a quiet one), so
 * the cap is high: at 16 per core a transcoder keeps a few percent of the CPU on any machine.
 */
const PROFILES = [
  { name: "480p", width: 854, height: 480, bitrate: 1_400_000, fps: 30 },
  { name: "360p", width: 640, height: 360, bitrate: 700_000, fps: 30 },
];
/**
 * Room for the ramp (the node fell behind at 20-22 busy loops in clean-clone runs: from
 * FIRST_HOGS, 56 s after the ramp began) and, after SETTLE_MS, JUDGED_MS of judged readings.
 */
const PUBLISH_S = 90;
const SEGMENT_S = 2;
/** The newest listed segment may trail what the encoder sent by the segment in progress, its storing, a poll: a few segments. */
const EDGE_LIMIT_S = 4 * SEGMENT_S + 2;
/** Judged once the stream has been live this long: its start reads a backlog on a saturated machine. */
const SETTLE_MS = 30_000;
/** How long the live edge is judged at least: the node tips over within it. */
const JUDGED_MS = 45_000;
/**
 * The first busy loops, at once: no clean-clone run's node fell behind below 20, and the ramp
 * doubling from 1 to 8 spent 24 s of the test's time for nothing.
 */
const FIRST_HOGS = 8;
/**
 * The ramp's pace. How far a rendition trails the source before the node drops it grows with how
 * abruptly the load comes: every 5 s, 11.3 s (past the limit); every 7 s, 1.9-10.1 s over six
 * clean-clone runs (past it once).
 */
const HOG_EVERY_MS = 8000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "castline-live-load-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Proc {
  pid: number;
  nice: number;
  args: string;
}

/** The ffmpeg processes on the machine, with their niceness and command lines. */
function ffmpegProcesses(): Proc[] {
  const found: Proc[] = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      // Only once exec'd: before, the command line is still setpriv's or nice's.
      if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "ffmpeg") continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.push({ pid: Number(pid), nice: Number(fields[16]), args: fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ") });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A media playlist's segments with their numbers (seg_00042.ts is 42), and whether it ended. */
async function mediaPlaylist(url: string) {
  const res = await fetch(url);
  if (res.status !== 200) return undefined;
  const text = await res.text();
  const segments = parseMediaPlaylist(text).map((s) => ({ ...s, seq: Number(/_(\d+)\.ts$/.exec(s.uri)![1]) }));
  return { segments, ended: text.includes("#EXT-X-ENDLIST") };
}

/** The variant URIs of the stream's master playlist now, absolute. */
async function variantsOf(masterUrl: string): Promise<string[]> {
  const res = await fetch(masterUrl);
  if (res.status !== 200) return [];
  return (await res.text())
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((uri) => new URL(uri, masterUrl).href);
}

async function uploadVideo(api: Api, seconds: number) {
  const file = await makeMedia(tmp, "mp4", { seconds, size: "640x360" });
  const { url, asset } = (await api.post("asset/request-upload", { name: "background work" })).body;
  assert.equal((await putFile(url, file)).status, 200);
  return asset.id as string;
}

describe("live on a busy machine", { concurrency: false }, () => {
  test("the live edge stays within a few segments of the encoder, the node says it fell behind and drops renditions, and every second sent is played", async () => {
    const api = await newAccount();
    // An operator's account: the media nodes listing, where the node says it is overloaded, is theirs.
    await makeAdmin(api.email);
    const clip = path.join(tmp, "clip.flv");
    await makeBroadcastClip(clip, { size: "1280x720", seconds: 20 });
    const stream = (await api.post("stream", { name: "busy node", profiles: PROFILES })).body;
    const maxHogs = os.availableParallelism() * 16;
    // This process (and the encoder it starts) stands for the viewer and the encoder, which run
    // elsewhere: above the busy loops, so that what it measures is the node falling behind, not
    // itself (at 64 busy loops on 2 cores its own polls came 15 s apart). Needs root; else as is.
    try {
      os.setPriority(-10);
    } catch {
      console.log("live-under-load: not root, the observer runs at normal priority beside the busy loops");
    }
    const hog = cpuHog();
    const encoder = publishFile(rtmpUrl(stream.streamKey), clip, PUBLISH_S);
    const seen = new Map<number, number>(); // source segment number -> duration
    const edges: { at: number; behindS: number }[] = [];
    const renditionGaps: { at: number; uri: string; behindS: number }[] = [];
    const dropped = new Set<string>();
    let nodeSaidLagging = false;
    const liveFfmpeg: Proc[] = [];
    const vodFfmpeg: Proc[][] = [];
    const missing: string[] = [];
    let assetId: string | undefined;
    try {
      // The source's live playlist, as viewers will reach it, from the moment the session exists.
      const [session] = await until(
        "the session",
        async () => {
          const list = (await api.get(`stream/${stream.id}/sessions`)).body;
          return list.length ? list : undefined;
        },
        60_000,
        200,
      );
      const masterUrl = `${BASE}/hls/${stream.playbackId}/index.m3u8`;
      const sourceUrl = new URL(`${session.id}/1/v0/index.m3u8`, masterUrl).href;
      /** Every source segment listed, once; each must be there for players (a HEAD of it). */
      const collect = async () => {
        const playlist = await mediaPlaylist(sourceUrl);
        for (const s of playlist?.segments ?? []) {
          if (seen.has(s.seq)) continue;
          seen.set(s.seq, s.duration);
          const res = await fetch(new URL(s.uri, sourceUrl), { method: "HEAD" });
          if (res.status !== 200) missing.push(`${s.uri}: ${res.status}`);
        }
        return playlist;
      };
      await until(
        "the stream live",
        async () => {
          await collect();
          return (await api.get(`stream/${stream.id}`)).body.isActive === true;
        },
        120_000,
        500,
      );
      const liveAt = Date.now();
      assert.equal((await api.get(`playback/${stream.playbackId}`)).body.meta.source[0].url, masterUrl);
      assert.equal((await variantsOf(masterUrl))[0], sourceUrl, "the master's first variant is the source");
      // The platform's own background work, on the same machine, while the broadcast runs.
      assetId = await uploadVideo(api, 48);
      let hogAt = 0;

      let polls = 0;
      while (encoder.proc.exitCode === null && encoder.proc.signalCode === null) {
        const source = await collect();
        const sentS = encoder.sentS();
        const listedS = [...seen.values()].reduce((a, b) => a + b, 0);
        if (Date.now() - liveAt > SETTLE_MS) edges.push({ at: Date.now(), behindS: sentS - listedS });

        // Every rendition viewers are offered keeps up with the source (their wall-clock ends compared).
        const newest = source?.segments.at(-1);
        const sourceEnd = newest?.programDateTime && newest.programDateTime + newest.duration * 1000;
        for (const uri of (await variantsOf(masterUrl)).slice(1)) {
          const last = (await mediaPlaylist(uri))?.segments.at(-1);
          if (!sourceEnd || !last?.programDateTime || Date.now() - liveAt <= SETTLE_MS) continue;
          renditionGaps.push({ at: Date.now(), uri, behindS: (sourceEnd - (last.programDateTime + last.duration * 1000)) / 1000 });
        }

        // No more once the node says it is behind: its drop follows within seconds.
        if (!dropped.size && !nodeSaidLagging && hog.count < maxHogs && Date.now() - hogAt >= HOG_EVERY_MS) {
          // FIRST_HOGS, then 2 at a time: close to where the node falls behind, not far past it
          // (32 at once starved the node's own reporting, not just its transcoder).
          hog.add(Math.min(hog.count < FIRST_HOGS ? FIRST_HOGS - hog.count : 2, maxHogs - hog.count));
          hogAt = Date.now();
        }
        if (polls++ % 3 === 0) {
          const { health } = (await api.get(`stream/${stream.id}`)).body;
          for (const name of health?.droppedRenditions ?? []) dropped.add(name);
          const node = (await api.get("media-node")).body.find((n: { rtmpPort: number; state: string }) => n.rtmpPort === RTMP_PORT && n.state !== "lost");
          if (node?.laggingSessions > 0 && node.state === "overloaded") nodeSaidLagging = true;
          const ffmpeg = ffmpegProcesses();
          liveFfmpeg.push(...ffmpeg.filter((p) => p.args.includes("castline-feeds-")));
          vodFfmpeg.push(ffmpeg.filter((p) => p.args.includes(assetId!)));
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      assert.equal(await encoder.exited, 0, encoder.stderr());
      const sentS = encoder.sentS();

      // The session ends only once the ladder has published what it was sent: by the time the
      // stream is idle, the source's playlist is closed and holds every second.
      await until(
        "the stream idle",
        async () => {
          await collect();
          return (await api.get(`stream/${stream.id}`)).body.isActive === false;
        },
        120_000,
        500,
      );
      const final = await collect();
      assert.ok(final?.ended, "the source playlist ends with #EXT-X-ENDLIST");

      const numbers = [...seen.keys()].sort((a, b) => a - b);
      assert.deepEqual(
        numbers,
        Array.from({ length: numbers.length }, (_, i) => numbers[0] + i),
        "no source segment missed",
      );
      assert.equal(numbers[0], 0, "from the first segment");
      assert.deepEqual(missing, [], "every segment listed is there");
      const playedS = [...seen.values()].reduce((a, b) => a + b, 0);
      const worst = edges.reduce((w, e) => (e.behindS > w.behindS ? e : w), { at: 0, behindS: -Infinity });
      const worstRendition = renditionGaps.reduce((w, g) => (g.behindS > w.behindS ? g : w), { at: 0, uri: "", behindS: -Infinity });
      console.log(
        `busy machine: ${hog.count} busy loops; sent ${sentS.toFixed(1)} s, listed ${playedS.toFixed(1)} s; live edge behind the encoder ` +
          `${Math.min(...edges.map((e) => e.behindS)).toFixed(1)}–${worst.behindS.toFixed(1)} s over ${edges.length} readings; ` +
          `renditions behind the source up to ${worstRendition.behindS.toFixed(1)} s; dropped: ${[...dropped].join(", ") || "none"}`,
      );
      assert.ok(Math.abs(playedS - sentS) <= SEGMENT_S, `the encoder sent ${sentS.toFixed(1)} s, the live playlist holds ${playedS.toFixed(1)} s`);

      assert.ok(
        edges.length >= 20 && edges.at(-1)!.at - edges[0].at >= JUDGED_MS,
        `${edges.length} readings of the live edge, over ${JUDGED_MS / 1000} s at least`,
      );
      assert.ok(
        worst.behindS <= EDGE_LIMIT_S,
        `the live edge trailed the encoder by ${worst.behindS.toFixed(1)} s (${edges.map((e) => e.behindS.toFixed(1)).join(" ")})`,
      );
      assert.ok(
        worstRendition.behindS <= EDGE_LIMIT_S,
        `a rendition offered trailed the source by ${worstRendition.behindS.toFixed(1)} s (${worstRendition.uri})`,
      );

      // The node said so: in the stream's health, in the session's, in the node listing.
      assert.ok(dropped.size > 0, `stream.health named renditions dropped (${hog.count} busy loops)`);
      assert.ok(
        [...dropped].every((name) => PROFILES.some((p) => p.name === name)),
        [...dropped].join(),
      );
      assert.ok(nodeSaidLagging, "the media node listing said it was overloaded, with a lagging session");
      const health = (await api.get(`session/${session.id}/health`)).body;
      const issue = health.issues.find((i: { reading: string }) => i.reading === "transcoding");
      assert.match(issue?.message ?? "", /^Transcoding fell behind real time .*: (480p|360p|480p and 360p|360p and 480p) dropped to keep the stream live/);
      assert.ok(health.samples.some((s: { droppedRenditions?: string[] }) => s.droppedRenditions?.length));

      // Live work at normal priority, the platform's background work below it (the ladder, which
      // nobody waits for, lowest), one at a time while live.
      assert.ok(liveFfmpeg.length > 0, "the live transcoders were seen");
      assert.deepEqual([...new Set(liveFfmpeg.map((p) => p.nice))], [0]);
      // The ladder, deferred behind everything, may not have reached its first chunk before the
      // broadcast ended on a machine this busy: its priority is then read once it does.
      const afterLive: Proc[] = [];
      const ladderSeen = () => [...vodFfmpeg.flat(), ...afterLive].some((p) => p.args.includes("chunk.m3u8"));
      if (!ladderSeen()) {
        // The busy loops have done their part: beside them, work at the ladder's niceness got so
        // little of the machine that a clean-clone run waited 180 s for its first chunk in vain.
        await hog.stop();
        await until(
          "the ladder's first transcode",
          async () => {
            afterLive.push(...ffmpegProcesses().filter((p) => p.args.includes(assetId!)));
            return ladderSeen();
          },
          180_000,
          200,
        );
      }
      const vod = [...vodFfmpeg.flat(), ...afterLive];
      assert.ok(vod.length > 0, "the VOD transcodes were seen");
      const ladder = vod.filter((p) => p.args.includes("chunk.m3u8"));
      assert.deepEqual([...new Set(ladder.map((p) => p.nice))], [DEFERRED_NICENESS]);
      for (const p of vod) assert.ok([BACKGROUND_NICENESS, DEFERRED_NICENESS].includes(p.nice), `nice ${p.nice}: ${p.args.slice(0, 120)}`);
      const chunkTranscodes = vodFfmpeg.map((seenAt) => seenAt.filter((p) => p.args.includes("chunk.m3u8")).length);
      assert.ok(Math.max(...chunkTranscodes) <= 1, `chunk transcodes at once: ${chunkTranscodes.join(" ")}`);
    } finally {
      await encoder.stop();
      await hog.stop();
      if (assetId) await api.delete(`asset/${assetId}`);
    }
  });
});
