import assert from "node:assert/strict";
import { test } from "node:test";
import { ffmpegRestarts, readWebrtcFrom, segmentWriteSeconds, startMetricsServer } from "@/lib/metrics/media";

const TOKEN = "a-metrics-token-of-32-characters";

const scrape = (port: number, auth?: string, path = "/metrics", method = "GET") =>
  fetch(`http://127.0.0.1:${port}${path}`, { method, headers: auth ? { authorization: auth } : {} });

/** The value of one sample line, e.g. sample(text, 'castline_ffmpeg_restarts_total{role="push"}'). */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test("a media node's metrics server answers Prometheus text with its counters, and only with the token", async () => {
  const server = await startMetricsServer(0, TOKEN);
  try {
    assert.ok(server.port > 0);
    for (const auth of [undefined, "Bearer wrong-token-wrong-token-wrong", `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await scrape(server.port, auth);
      assert.equal(res.status, 401, `auth=${auth}`);
      assert.ok((await res.json()).errors.length > 0);
    }
    const before = sample(await (await scrape(server.port, `Bearer ${TOKEN}`)).text(), 'castline_ffmpeg_restarts_total{role="push"}') ?? 0;
    ffmpegRestarts.inc({ role: "push" });
    ffmpegRestarts.inc({ role: "push" });
    segmentWriteSeconds.observe({ kind: "live" }, 0.003);

    const res = await scrape(server.port, `Bearer ${TOKEN}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.equal(sample(text, 'castline_ffmpeg_restarts_total{role="push"}'), before + 2);
    assert.equal(sample(text, 'castline_segment_write_seconds_bucket{le="0.001",kind="live"}'), 0);
    assert.equal(sample(text, 'castline_segment_write_seconds_bucket{le="0.005",kind="live"}'), 1);
    assert.ok((sample(text, "castline_node_cpu_load") ?? -1) >= 0, "the load is read at scrape time");
    assert.match(text, /^process_cpu_user_seconds_total \d/m, "the process's own metrics");

    assert.equal((await scrape(server.port, `Bearer ${TOKEN}`, "/other")).status, 404);
    assert.equal((await scrape(server.port, `Bearer ${TOKEN}`, "/metrics", "POST")).status, 405);
  } finally {
    await server.close();
  }
  await assert.rejects(scrape(server.port, `Bearer ${TOKEN}`), "closed");
});

test("without a token the node's metrics are open (its port is firewalled)", async () => {
  const server = await startMetricsServer(0);
  try {
    const res = await scrape(server.port);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^# TYPE castline_node_sessions gauge$/m);
  } finally {
    await server.close();
  }
});

test("a node's WebRTC counts, read at scrape time: NACKed packets and packets lost both ways, each growing with what the node saw", async () => {
  const stats = {
    publishers: 1,
    viewers: 3,
    renditions: { copied: 0, made: 1 },
    receivedBytes: 10,
    sentBytes: 20,
    keyframeRequests: 2,
    nacked: 0,
    lostByPublishers: 0,
    lostBySent: 0,
  };
  readWebrtcFrom(() => stats);
  const server = await startMetricsServer(0);
  try {
    const read = async () => await (await scrape(server.port)).text();
    const first = await read();
    assert.equal(sample(first, "castline_webrtc_viewers"), 3);
    assert.equal(sample(first, 'castline_webrtc_lost_packets_total{direction="received"}'), 0, "shown before any loss");
    assert.equal(sample(first, 'castline_webrtc_lost_packets_total{direction="sent"}'), 0);
    Object.assign(stats, { nacked: 14, lostByPublishers: 3, lostBySent: 9 });
    const then = await read();
    assert.equal(sample(then, "castline_webrtc_nacked_packets_total"), 14);
    assert.equal(sample(then, 'castline_webrtc_lost_packets_total{direction="received"}'), 3);
    assert.equal(sample(then, 'castline_webrtc_lost_packets_total{direction="sent"}'), 9);
  } finally {
    readWebrtcFrom(() => undefined);
    await server.close();
  }
});
