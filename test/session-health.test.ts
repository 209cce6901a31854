import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { count, eq } from "drizzle-orm";
import { sessionHealthSamples, sessions } from "@/db/schema";
import { recordHealth } from "@/lib/sessions/health";
import { healthBucketMs } from "@/lib/sessions/health-readings";
import { newAccount } from "./support/client";
import { db, startSession } from "./support/db";
import { publish, rtmpUrl, streamActive as active, streamIdle as idle, until } from "./support/media";

const LADDER = [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

interface Sample {
  at: number;
  bitrateKbps?: number;
  fps?: number;
  keyframeIntervalS?: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe("broadcasts: ingest health history and recordings", { concurrency: false }, () => {
  test("a broadcast's health is kept per session, live and after it ended, owner only; its recording is named after it and links back", async () => {
    const api = await newAccount();
    const other = await newAccount();
    const stream = (await api.post("stream", { name: "Studio", record: true, profiles: LADDER })).body;
    // A keyframe every 3 s: the encoder setting the history must show, and name as the one to fix.
    const broadcaster = publish(rtmpUrl(stream.streamKey), { fps: 30, keyframeIntervalS: 3 });
    let sessionId: string;
    let liveCount: number;
    const startedAt = Date.now();
    try {
      await active(api, stream.id);
      [{ id: sessionId }] = (await api.get(`stream/${stream.id}/sessions`)).body;

      const live = await until(
        "a few health samples while live",
        async () => {
          const res = await api.get(`session/${sessionId}/health`);
          assert.equal(res.status, 200);
          return res.body.samples.length >= 4 ? res.body : undefined;
        },
        40_000,
        1000,
      );
      assert.equal(live.isActive, true);
      assert.equal(live.sessionId, sessionId);
      const samples: Sample[] = live.samples;
      // One sample per 5 s bucket, aligned, oldest first.
      for (const s of samples) assert.equal(s.at % 5000, 0, `bucket start ${s.at}`);
      for (let i = 1; i < samples.length; i++) assert.ok(samples[i].at > samples[i - 1].at, "oldest first, one per bucket");
      assert.ok(samples.length <= Math.ceil((Date.now() - startedAt) / 5000) + 1, `${samples.length} samples in ${Date.now() - startedAt} ms`);

      // Readings are what ffmpeg sends: -g 90 at 30 fps, a few hundred kbps of test pattern.
      const keyframes = samples.map((s) => s.keyframeIntervalS).filter((k): k is number => k !== undefined);
      assert.ok(keyframes.length >= 2, "keyframe intervals measured");
      assert.ok(Math.abs(median(keyframes) - 3) < 0.1, `keyframe interval ${keyframes}`);
      const fps = samples.map((s) => s.fps).filter((f): f is number => f !== undefined);
      assert.ok(Math.abs(median(fps) - 30) < 1.5, `fps ${fps}`);
      const bitrates = samples.map((s) => s.bitrateKbps).filter((b): b is number => b !== undefined);
      assert.ok(median(bitrates) > 50 && median(bitrates) < 20_000, `bitrate ${bitrates}`);
      const keyframeIssue = live.issues.find((i: { reading: string }) => i.reading === "keyframeInterval");
      assert.ok(keyframeIssue, JSON.stringify(live.issues));
      assert.match(keyframeIssue.message, /3 s apart.*keyframe interval to 2 s/);
      liveCount = samples.length;

      // Another account, and unknown ids, learn nothing.
      const foreign = await other.get(`session/${sessionId}/health`);
      assert.equal(foreign.status, 404);
      assert.ok(Array.isArray(foreign.body.errors));
      assert.equal((await api.get("session/nope/health")).status, 404);

      // Latency of the endpoint with a broadcast's samples in it.
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        assert.equal((await api.get(`session/${sessionId}/health`)).status, 200);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`# GET /session/{id}/health: median ${times[10].toFixed(1)} ms, max ${times[19].toFixed(1)} ms (${liveCount} samples)`);
    } finally {
      await broadcaster.stop();
    }
    await idle(api, stream.id);

    const ended = (await api.get(`session/${sessionId}/health`)).body;
    assert.equal(ended.isActive, false, "kept after the broadcast ended");
    assert.ok(ended.endedAt >= ended.startedAt);
    assert.ok(ended.samples.length >= liveCount, `${ended.samples.length} samples after the end, ${liveCount} while live`);
    const rate = ended.samples.length / ((ended.endedAt - ended.startedAt) / 1000);
    console.log(`# ${ended.samples.length} samples over ${((ended.endedAt - ended.startedAt) / 1000).toFixed(0)} s (${Math.round(rate * 3600)} rows per hour)`);
    assert.equal((await other.get(`session/${sessionId}/health`)).status, 404);

    // The recording (the suite's reconnect window is short) becomes an asset named after the stream and start.
    const asset = await until(
      "the recording's asset",
      async () => {
        const list = (await api.get("asset")).body;
        return list[0]?.source?.type === "recording" ? list[0] : undefined;
      },
      60_000,
      500,
    );
    const session = (await api.get(`session/${sessionId}`)).body;
    const start = new Date(session.createdAt);
    const two = (n: number) => String(n).padStart(2, "0");
    assert.equal(
      asset.name,
      `Studio — ${start.getUTCDate()} ${MONTHS[start.getUTCMonth()]} ${start.getUTCFullYear()} ${two(start.getUTCHours())}:${two(start.getUTCMinutes())} UTC`,
    );
    assert.deepEqual(asset.source, { type: "recording", sessionId, streamId: stream.id });
    assert.equal(session.assetId, asset.id);
    assert.ok(session.endedAt >= session.createdAt);

    // Once ready, the session leads to the recording's player and file.
    const ready = await until(
      "the recording ready",
      async () => {
        const s = (await api.get(`session/${sessionId}`)).body;
        return s.recordingStatus === "ready" ? s : undefined;
      },
      60_000,
      500,
    );
    assert.equal(ready.recordingPlaybackId, asset.playbackId);
    const [listed] = (await api.get(`stream/${stream.id}/sessions`)).body;
    assert.equal(listed.recordingPlaybackId, asset.playbackId);
    assert.equal((await api.get("session")).body[0].recordingPlaybackId, asset.playbackId);
    await until("the recording's asset, ready", async () => (await api.get(`asset/${asset.id}`)).body.status.phase === "ready", 60_000, 500);
    const info = await api.get(`playback/${ready.recordingPlaybackId}`);
    assert.equal(info.status, 200);
    assert.equal(info.body.type, "recording");
  });

  test("a week-long broadcast keeps a bounded history, and it answers quickly", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "24/7", profiles: LADDER })).body;
    const week = 7 * 24 * 3600_000;
    const started = Date.now() - week;
    const [session] = await db()
      .update(sessions)
      .set({ createdAt: started })
      .where(eq(sessions.id, (await startSession(stream.id)).id))
      .returning();
    // Two heartbeats in every bucket of the week, through the same code the heartbeat route runs.
    let beats = 0;
    for (let t = 0; t < week; t += healthBucketMs(t)) {
      for (const at of [started + t, started + t + healthBucketMs(t) / 2]) {
        await recordHealth(session, { bitrateKbps: 2000 + (beats % 7), fps: 30, keyframeIntervalS: 2, updatedAt: at });
        beats++;
      }
    }
    const [{ rows }] = await db().select({ rows: count() }).from(sessionHealthSamples).where(eq(sessionHealthSamples.sessionId, session.id));
    // Buckets align to the clock, not to the start: where widths double (8 times in a week) one may split or merge.
    assert.ok(Math.abs(rows - beats / 2) <= 8, `${rows} rows for ${beats / 2} buckets of two beats`);
    assert.ok(rows < 4000, `${rows} rows for a week`);

    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await api.get(`session/${session.id}/health`);
      times.push(performance.now() - t0);
      assert.equal(res.status, 200);
      assert.equal(res.body.samples.length, rows);
      assert.deepEqual(res.body.issues, []);
    }
    times.sort((a, b) => a - b);
    console.log(`# a week of broadcast: ${rows} rows; GET /session/{id}/health median ${times[10].toFixed(1)} ms, max ${times[19].toFixed(1)} ms`);
    assert.ok(times[10] < 500, `median ${times[10]} ms`);
  });
});
