import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { operations } from "@/lib/api/operations";
import { makeAdmin } from "./support/cli";
import { Api, newAccount } from "./support/client";
import { startCluster, type Cluster } from "./support/cluster";
import { decodes, ffprobe, publish, rtmpUrl, until, type Running } from "./support/media";
import { startReceiver } from "./support/receiver";

/**
 * Castline on many machines, as compose.yaml lays it out: two app instances and two
 * media nodes on one PostgreSQL and one bucket (s3rver), no directory shared.
 */
/**
 * Twice the default: a node's heartbeats (every 2 s) came 10 s late on a 2-core machine running
 * the suite's other files beside this one (the reason it once ran alone).
 */
const NODE_LOST_AFTER_S = 20;
/** How long after a node goes silent its sessions may end: its timeout, the sweep (every 2 s) and a loaded machine's delays. */
const ENDS_WITHIN_S = NODE_LOST_AFTER_S + 8;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "castline-cluster-test-"));
let cluster: Cluster;
const receivers: { close(): Promise<void> }[] = [];
const broadcasts: Running[] = [];
/** An encoder, stopped at the end whatever happens. */
const broadcast = (url: string) => {
  const running = publish(url);
  broadcasts.push(running);
  return running;
};

before(async () => {
  cluster = await startCluster({
    apps: 2,
    nodes: 2,
    env: { NODE_LOST_AFTER_S: String(NODE_LOST_AFTER_S), RECORDING_RECONNECT_WINDOW_S: "6", CHECK_RESPONSES: "true" },
  });
});

after(async () => {
  // What the nodes said, when something went wrong.
  if (process.exitCode) for (const [i, n] of (cluster?.nodes ?? []).entries()) console.error(`--- media node ${i + 1}:\n${n.output().slice(-4000)}`);
  await Promise.all([...receivers.map((r) => r.close()), ...broadcasts.map((b) => b.stop())]);
  await cluster?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** An account with the admin role (operators see the media nodes); one for the file, as making it runs the CLI. */
let operatorAccount: Promise<Api> | undefined;
const operator = () =>
  (operatorAccount ??= newAccount(cluster.apps[0].url).then(async (api) => {
    await makeAdmin(api.email, { ...cluster.env, DATA_DIR: cluster.appDataDirs[0] });
    return api;
  }));

/** The same account, through another app instance. */
const at = (api: Api, base: string) => new Api(api.key, api.email, base);

async function get(url: string) {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return res;
}

/** What a player does: playback info, master, a media playlist, its newest segment, decoded. */
async function plays(api: Api, playbackId: string, name: string) {
  // A stream is active as soon as its encoder is; its playlist is listed once the first segment is stored.
  const masterUrl = await until(
    `a source listed for ${playbackId}`,
    async () => {
      const info = await api.call(operations.getPlaybackInfo, { params: { playbackId } });
      assert.equal(info.status, 200);
      return info.body.meta.source?.[0]?.url;
    },
    60_000,
  );
  assert.ok(masterUrl.startsWith(api.base), `${masterUrl} is served by the instance asked`);
  const master = await (await get(masterUrl)).text();
  // A live stream's is a master playlist; a single-rendition asset's may be the media playlist itself.
  const variant = master.includes("#EXT-X-STREAM-INF") ? master.split("\n").find((l) => l && !l.startsWith("#"))! : masterUrl;
  const mediaUrl = new URL(variant, masterUrl).toString();
  const media = await (await get(mediaUrl)).text();
  const segment = media
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .at(-1)!;
  const bytes = Buffer.from(await (await get(new URL(segment, mediaUrl).toString())).arrayBuffer());
  const file = path.join(tmp, `${name}.ts`);
  fs.writeFileSync(file, bytes);
  await decodes(file);
}

const live = (api: Api, id: string) => until(`stream ${id} live`, async () => (await api.get(`stream/${id}`)).body.isActive === true, 40_000);
const idle = (api: Api, id: string, ms = 20_000) => until(`stream ${id} idle`, async () => (await api.get(`stream/${id}`)).body.isActive === false, ms);

describe("Castline on many machines", { concurrency: false }, () => {
  test("both nodes register, heartbeat and are listed for encoders, through either instance", async () => {
    const [a1, a2] = cluster.apps;
    const api = await operator();
    for (const base of [a1.url, a2.url]) {
      const ingests = await until("both nodes listed", async () => {
        const res = await at(api, base).call(operations.listIngests);
        return res.body.length === 2 ? res.body : undefined;
      });
      assert.deepEqual(ingests.map((i) => i.ingest).sort(), cluster.nodes.map((n) => `rtmp://127.0.0.1:${n.rtmpPort}/live`).sort());
      const nodes = (await at(api, base).call(operations.listMediaNodes)).body;
      // Up, both (on a busy machine, overloaded: see lib/live/nodes.ts isOverloaded).
      assert.deepEqual(
        nodes.map((n) => n.state === "lost"),
        [false, false],
      );
    }
  });

  test("a stream on each node at once plays through both app instances, from the bucket", async () => {
    const api = await newAccount(cluster.apps[0].url);
    const streams = [];
    const broadcasters: Running[] = [];
    try {
      for (const [i, node] of cluster.nodes.entries()) {
        const stream = (
          await api.post("stream", { name: `on node ${i + 1}`, profiles: [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }] })
        ).body;
        streams.push(stream);
        broadcasters.push(broadcast(rtmpUrl(stream.streamKey, node.rtmpPort)));
      }
      for (const stream of streams) await live(api, stream.id);
      for (const stream of streams) {
        for (const [j, app] of cluster.apps.entries()) await plays(at(api, app.url), stream.playbackId, `${stream.id}-via-${j}`);
      }
      // The same stream published to the other node at the same time is refused there.
      const second = broadcast(rtmpUrl(streams[0].streamKey, cluster.nodes[1].rtmpPort));
      const code = await Promise.race([second.exited, new Promise((r) => setTimeout(() => r("still running"), 10_000))]);
      await second.stop();
      assert.notEqual(code, "still running", "a second publish of a live stream is refused on the other node");
      assert.equal((await api.get(`stream/${streams[0].id}/sessions`)).body.length, 1);
    } finally {
      await Promise.all(broadcasters.map((b) => b.stop()));
    }
    for (const stream of streams) await idle(api, stream.id);
    // No media went through an app instance's disk, nor stays on a node's.
    for (const dir of cluster.appDataDirs) assert.ok(!fs.existsSync(path.join(dir, "objects", "live")), `${dir} holds no live media`);
  });

  test("a gated stream: an admission on one instance holds on the other (playback tokens, a webhook's cached answer)", async () => {
    const [a1, a2] = cluster.apps;
    const api = await newAccount(a1.url);
    const asked: string[] = [];
    const receiver = await startReceiver({ onRequest: (r) => asked.push(r.json.accessKey) });
    receivers.push(receiver);
    const hook = (await api.post("webhook", { name: "members", url: receiver.url, events: ["playback.accessControl"] })).body;
    const stream = (await api.post("stream", { name: "members only", playbackPolicy: { type: "webhook", webhookId: hook.id } })).body;
    const broadcaster = broadcast(rtmpUrl(stream.streamKey, cluster.nodes[0].rtmpPort));
    try {
      await live(api, stream.id);
      assert.equal((await fetch(`${a2.url}/api/playback/${stream.playbackId}`)).status, 401);
      const info = await until("admitted on instance 1", async () => {
        const res = await fetch(`${a1.url}/api/playback/${stream.playbackId}?accessKey=member-1`);
        const body = res.status === 200 ? ((await res.json()) as { meta: { live: number; source: { url: string }[] } }) : undefined;
        return body?.meta.live === 1 ? body : undefined;
      });
      // The URLs instance 1 handed out work on instance 2: the token needs no state of instance 1.
      const onSecond = info.meta.source[0].url.replace(a1.url, a2.url);
      const master = await (await get(onSecond)).text();
      const variant = new URL(master.split("\n").find((l) => l && !l.startsWith("#"))!, onSecond);
      assert.ok(variant.searchParams.get("tkn"));
      const media = await (await get(variant.toString())).text();
      await get(
        new URL(
          media
            .split("\n")
            .filter((l) => l && !l.startsWith("#"))
            .at(-1)!,
          variant,
        ).toString(),
      );
      // The webhook's answer is shared: instance 2 does not ask it again for the same key.
      assert.equal((await fetch(`${a2.url}/hls/${stream.playbackId}/index.m3u8?accessKey=member-1`)).status, 200);
      assert.deepEqual(asked.filter((k) => k === "member-1").length, 1);
    } finally {
      await broadcaster.stop();
    }
    await idle(api, stream.id);
  });

  test("kill -9 of a node mid-broadcast: the session ends once, continues on the other node, and its recording holds both parts", async () => {
    const [a1, a2] = cluster.apps;
    const [n1, n2] = cluster.nodes;
    const api = at(await operator(), a2.url);
    const rx = await startReceiver();
    receivers.push(rx);
    await api.post("webhook", { name: "rx", url: rx.url, events: ["stream.started", "stream.idle", "recording.waiting", "recording.ready"] });
    const stream = (await api.post("stream", { name: "failover", record: true })).body;

    let broadcaster = broadcast(rtmpUrl(stream.streamKey, n1.rtmpPort));
    await live(api, stream.id);
    const [session] = (await api.get(`stream/${stream.id}/sessions`)).body;
    const recording = session.recordingUrl ?? `${a1.url}/recordings/${session.id}/index.m3u8`;
    // Killed once segments were stored while live.
    const partOne = await until(
      "segments stored while live",
      async () => {
        const seconds = await recordedSeconds(recording, { soFar: true });
        return seconds >= 2 && seconds;
      },
      30_000,
    );

    const killedAt = Date.now();
    await n1.crash();
    await broadcaster.stop();
    await idle(api, stream.id, (ENDS_WITHIN_S + 10) * 1000);
    const endedAfter = (Date.now() - killedAt) / 1000;
    assert.ok(endedAfter >= NODE_LOST_AFTER_S - 1 && endedAfter < ENDS_WITHIN_S, `ended ${endedAfter} s after the kill`);
    const nodes = (await api.call(operations.listMediaNodes)).body;
    assert.equal(nodes.find((n) => n.ingestUrl === `rtmp://127.0.0.1:${n1.rtmpPort}/live`)?.state, "lost");
    assert.deepEqual(
      (await api.call(operations.listIngests)).body.map((i) => i.ingest),
      [`rtmp://127.0.0.1:${n2.rtmpPort}/live`],
    );
    await until("stream.idle and recording.waiting", async () => rx.received.some((r) => r.json.event === "recording.waiting"));

    // The encoder reconnects, to the other node: the same session goes on.
    broadcaster = broadcast(rtmpUrl(stream.streamKey, n2.rtmpPort));
    await live(api, stream.id);
    await plays(at(api, a1.url), stream.playbackId, "after-failover");
    // A second part long enough to tell apart from the first in the asset's duration (below).
    await until("6 s recorded after the reconnect", async () => (await recordedSeconds(recording, { soFar: true })) >= partOne + 6, 30_000);
    await broadcaster.stop();
    await idle(api, stream.id);
    const sessions = (await api.get(`stream/${stream.id}/sessions`)).body;
    assert.equal(sessions.length, 1, "the reconnect continued the same session");
    const recorded = await recordedSeconds(sessions[0].recordingUrl);
    const playlist = await (await get(sessions[0].recordingUrl)).text();
    assert.equal(playlist.match(/#EXT-X-DISCONTINUITY/g)?.length, 1, "two parts");

    const asset = await until(
      "the recording's asset, ready",
      async () => {
        const list = (await at(api, a1.url).get("asset")).body;
        return list[0]?.status.phase === "ready" ? list[0] : undefined;
      },
      90_000,
      500,
    );
    assert.deepEqual(asset.source, { type: "recording", sessionId: session.id, streamId: stream.id });
    const mp4 = path.join(tmp, "failover.mp4");
    // The session says its recording is ready once the finalizing job has marked it, just after the asset.
    const mp4Url = await until("the session's recording MP4", async () => (await at(api, a1.url).get(`session/${session.id}`)).body.mp4Url, 30_000, 500);
    fs.writeFileSync(mp4, Buffer.from(await (await get(mp4Url)).arrayBuffer()));
    const duration = Number((await ffprobe(mp4)).format.duration);
    assert.ok(Math.abs(duration - recorded) < 1.5, `the asset (${duration} s) holds both parts (${recorded} s recorded)`);
    assert.ok(duration > partOne + 4, `the asset (${duration} s) is longer than the part after the reconnect`);
    await plays(at(api, a1.url), asset.playbackId, "recording-asset");

    await until("recording.ready", async () => rx.received.some((r) => r.json.event === "recording.ready"), 30_000);
    await new Promise((r) => setTimeout(r, 2000)); // anything delivered twice would arrive by now
    const events = rx.received.map((r) => String(r.json.event));
    assert.deepEqual(events.filter((e) => e === "stream.idle").length, 2, `one stream.idle per broadcast: ${events}`);
    assert.equal(new Set(rx.received.map((r) => r.json.id)).size, rx.received.length, "no event delivered twice");
  });

  test("a node declared lost is fenced: it cannot report, heartbeat into, or take back a session", async () => {
    const [a1] = cluster.apps;
    const api = await operator();
    const stream = (await api.post("stream", { name: "fenced" })).body;
    const broadcaster = broadcast(rtmpUrl(stream.streamKey, cluster.nodes[1].rtmpPort));
    try {
      await live(api, stream.id);
      const [session] = (await api.get(`stream/${stream.id}/sessions`)).body;
      const internal = (path: string, body: unknown) =>
        fetch(`${a1.url}/api/internal/media/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-media-secret": cluster.env.MEDIA_SECRET! },
          body: JSON.stringify(body),
        });
      // An earlier epoch of the session (a node that had it before) is refused.
      const stale = await internal("event", { kind: "recorded", sessionId: session.id, epoch: 0, seq: 0, file: "seg_00000.ts", duration: 2, size: 1 });
      assert.equal(stale.status, 409);
      const beat = await (
        await internal("heartbeat", {
          sessionId: session.id,
          epoch: 0,
          sourceSegments: 0,
          transcodedSegments: 0,
          sourceSegmentsDuration: 0,
          transcodedSegmentsDuration: 0,
        })
      ).json();
      assert.equal(beat.stop, true);
      // A lost node that comes back is told so (and lets its broadcasts go): node 1, silent since
      // its kill -9 in the test before, as a frozen machine would be, resumes; a new node is not.
      const beatAs = (nodeId: string, rtmpPort: number) => internal("node", { nodeId, rtmpPort, cores: 1, cpuLoad: 0, liveSessions: 0, startedAt: Date.now() });
      assert.deepEqual(await (await beatAs("new-node", 1935)).json(), { lost: false });
      const lost = (await api.call(operations.listMediaNodes)).body.find((n) => n.ingestUrl === `rtmp://127.0.0.1:${cluster.nodes[0].rtmpPort}/live`);
      assert.ok(lost?.lostAt != null, "node 1 was declared lost");
      assert.deepEqual(await (await beatAs(lost.id, cluster.nodes[0].rtmpPort)).json(), { lost: true });
      assert.equal((await api.get(`stream/${stream.id}`)).body.isActive, true, "other sessions go on");
    } finally {
      await broadcaster.stop();
    }
  });
});

/** The duration of a recording's playlist (the sum of its segments); so far, 0 before it has one. */
async function recordedSeconds(url: string, opts: { soFar?: boolean } = {}): Promise<number> {
  if (opts.soFar) {
    const res = await fetch(url);
    if (res.status === 404) return 0;
    assert.equal(res.status, 200, url);
    return [...(await res.text()).matchAll(/#EXTINF:([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0);
  }
  const text = await (await get(url)).text();
  return [...text.matchAll(/#EXTINF:([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0);
}
