import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { eq, sql } from "drizzle-orm";
import { liveSegments, recordingSegments } from "@/db/schema";
import { BASE, newAccount } from "./support/client";
import { startMediaNodeProcess } from "./support/cluster";
import { db } from "./support/db";
import { publish, rtmpUrl, streamActive, streamIdle, until } from "./support/media";

type HeartbeatMode = "pass" | "late" | "fail";

/**
 * The app as a media node on a busy network sees it: every request passed on, but heartbeats
 * `late` (held past the node's 10 s timeout, then delivered anyway, as a busy app answers them)
 * or `fail` (a 503 from an overloaded app, never delivered).
 */
async function heartbeatWeather(app: string) {
  let mode: HeartbeatMode = "pass";
  let lateLeft = 0;
  const server = http.createServer((req, res) => {
    const heartbeat = req.url === "/api/internal/media/heartbeat";
    const weather: HeartbeatMode = !heartbeat ? "pass" : mode === "late" && lateLeft-- > 0 ? "late" : mode === "late" ? "pass" : mode;
    if (weather === "fail") return void req.resume().on("end", () => res.writeHead(503).end("busy"));
    const forward = () => {
      const upstream = http.request(new URL(req.url!, app), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      return upstream;
    };
    if (weather === "pass") return void req.pipe(forward());
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => setTimeout(() => forward().end(Buffer.concat(chunks)), 11_000));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    late(beats: number) {
      mode = "late";
      lateLeft = beats;
    },
    fail: () => (mode = "fail"),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test("a session counts every segment its node stored, though heartbeats come late or fail at the end", async () => {
  const api = await newAccount();
  const stream = (await api.post("stream", { name: "counted", record: true })).body;
  const weather = await heartbeatWeather(BASE);
  const nodeDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-counters-"));
  const node = await startMediaNodeProcess(
    { ...process.env, APP_URL: weather.url, MEDIA_SECRET: fs.readFileSync(path.join(process.env.DATA_DIR!, "media-secret"), "utf8").trim() },
    nodeDir,
  );
  try {
    const broadcaster = publish(rtmpUrl(stream.streamKey, node.rtmpPort), { seconds: 16 });
    await streamActive(api, stream.id);
    // Two heartbeats the node gives up on that the app still applies later.
    weather.late(2);
    await broadcaster.exited;
    // The last ones, which carry the end of the broadcast, never arrive.
    weather.fail();
    await streamIdle(api, stream.id);
    const [session] = (await api.get(`stream/${stream.id}/sessions`)).body;

    // What the node stored: the source segments the DVR lists, and the recording.
    const sum = (column: typeof liveSegments.duration | typeof recordingSegments.duration) => sql<number>`coalesce(sum(${column}), 0)::float8`;
    const [stored] = await db()
      .select({ n: sql<number>`count(*)::int`, seconds: sum(liveSegments.duration) })
      .from(liveSegments)
      .where(eq(liveSegments.sessionId, session.id));
    const [recorded] = await db()
      .select({ seconds: sum(recordingSegments.duration) })
      .from(recordingSegments)
      .where(eq(recordingSegments.sessionId, session.id));
    const figures = await until(
      "the session's final figures",
      async () => {
        const s = (await api.get(`session/${session.id}`)).body;
        return s.sourceSegments === stored.n && s;
      },
      20_000,
    ).catch(async () => (await api.get(`session/${session.id}`)).body);
    assert.equal(figures.sourceSegments, stored.n, `segments counted vs stored (${JSON.stringify(figures)})`);
    assert.ok(Math.abs(figures.sourceSegmentsDuration - stored.seconds) < 0.01, `${figures.sourceSegmentsDuration} s counted, ${stored.seconds} s stored`);
    assert.ok(Math.abs(figures.sourceSegmentsDuration - recorded.seconds) < 2.5, `${figures.sourceSegmentsDuration} s counted, ${recorded.seconds} s recorded`);
    assert.ok(figures.sourceSegmentsDuration > 12, `${figures.sourceSegmentsDuration} s of a 16 s broadcast`);
    // The stream's totals are its one session's.
    const totals = (await api.get(`stream/${stream.id}`)).body;
    assert.deepEqual(
      [totals.sourceSegments, totals.sourceSegmentsDuration, totals.transcodedSegments, totals.transcodedSegmentsDuration],
      [figures.sourceSegments, figures.sourceSegmentsDuration, figures.transcodedSegments, figures.transcodedSegmentsDuration],
    );
  } finally {
    await node.stop();
    await weather.close();
    fs.rmSync(nodeDir, { recursive: true, force: true });
  }
});
