import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { operations } from "@/lib/api/operations";
import { freePort } from "@/lib/net/free-port";
import { BASE, newAccount } from "./support/client";
import { publish, rtmpUrl, streamActive, streamIdle, until } from "./support/media";
import { startReceiver } from "./support/receiver";

/** A platform's RTMP ingest, standing in for YouTube: ffmpeg listening on the target's exact URL. */
function rtmpIngest(url: string) {
  const proc = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-listen", "1", "-i", url, "-c", "copy", "-f", "null", "-"], { stdio: "ignore" });
  return () =>
    new Promise<void>((resolve) =>
      proc.exitCode !== null || proc.signalCode !== null ? resolve() : (proc.once("exit", () => resolve()), proc.kill("SIGKILL")),
    );
}

/** A server that takes the TCP connection and never says a word (a black hole past the firewall). */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => sockets.add(s.on("error", () => undefined)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const internalEvent = (body: unknown) =>
  fetch(`${BASE}/api/internal/media/event`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-media-secret": fs.readFileSync(path.join(process.env.DATA_DIR!, "media-secret"), "utf8").trim() },
    body: JSON.stringify(body),
  });

describe("multistream live state", { concurrency: false }, () => {
  test("each target's push shows connected, retrying with the error and the next attempt, or a silent host given up; cleared when the broadcast ends; never a key; owner only", async () => {
    const api = await newAccount();
    const other = await newAccount();
    const goodPort = await freePort();
    const secrets = { good: "good-secret-key-7Q9x", refused: "refused-secret-key-K2p", silent: "silent-secret-key-Zz4" };
    const goodUrl = `rtmp://127.0.0.1:${goodPort}/live/${secrets.good}`;
    const stopIngest = rtmpIngest(goodUrl);
    const silent = await silentServer();
    const refusedPort = await freePort();
    const good = (await api.post("multistream/target", { url: goodUrl, name: "good" })).body;
    const refused = (
      await api.post("multistream/target", { url: `rtmp://user:${secrets.refused}@127.0.0.1:${refusedPort}/live/${secrets.refused}`, name: "refused" })
    ).body;
    const hole = (await api.post("multistream/target", { url: `rtmp://127.0.0.1:${silent.port}/app/${secrets.silent}`, name: "silent" })).body;
    await api.post("multistream/target", { url: "rtmps://live.example.com:443/rtmp/unused-secret-key-99", name: "unused" });
    const stream = (
      await api.post("stream", {
        name: "simulcast status",
        multistream: {
          targets: [
            { id: good.id, profile: "source" },
            { id: refused.id, profile: "source", videoOnly: true },
            { id: hole.id, profile: "source" },
          ],
        },
      })
    ).body;
    const noKey = (what: string, body: unknown) => {
      const json = JSON.stringify(body);
      for (const secret of Object.values(secrets)) assert.ok(!json.includes(secret), `${what} shows a stream key: ${json}`);
      assert.ok(!json.includes("unused-secret-key"), what);
    };
    const status = async () => {
      const res = await api.call(operations.getMultistreamStatus, { params: { id: stream.id } });
      assert.equal(res.status, 200);
      noKey("status", res.body);
      return res.body;
    };
    const byName = (s: Awaited<ReturnType<typeof status>>) => Object.fromEntries(s.targets.map((t) => [t.name, t]));

    // The targets list: the host, never the URL, and who uses each target.
    const list = await api.call(operations.listTargets);
    assert.equal(list.status, 200);
    noKey("targets list", list.body);
    const listed = Object.fromEntries(list.body.map((t) => [t.name, t]));
    assert.equal(listed.good.host, `127.0.0.1:${goodPort}`);
    assert.equal(listed.refused.host, `127.0.0.1:${refusedPort}`, "userinfo is not part of the host");
    assert.equal(listed.unused.host, "live.example.com:443");
    assert.deepEqual(listed.good.streams, [{ id: stream.id, name: "simulcast status" }]);
    assert.deepEqual(listed.unused.streams, []);
    assert.deepEqual((await api.call(operations.getTarget, { params: { id: hole.id } })).body.streams, [{ id: stream.id, name: "simulcast status" }]);
    assert.deepEqual((await other.call(operations.listTargets)).body, [], "another account sees none of them");

    const idle = await status();
    assert.equal(idle.sessionId, null);
    assert.deepEqual(
      idle.targets.map((t) => [t.name, t.state, t.profile, t.videoOnly]),
      [
        ["good", "offline", "source", false],
        ["refused", "offline", "source", true],
        ["silent", "offline", "source", false],
      ],
    );

    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await streamActive(api, stream.id);
      const seenSilent = new Set<string>();
      const live = await until(
        "connected, retrying and the silent host given up",
        async () => {
          const s = await status();
          const t = byName(s);
          seenSilent.add(t.silent.state);
          return t.good.state === "connected" && t.refused.state === "retrying" && t.silent.state === "retrying" && s;
        },
        60_000,
        500,
      );
      assert.ok(live.sessionId);
      const t = byName(live);
      assert.equal(t.good.error, undefined);
      assert.equal(t.good.retryAt, undefined);
      assert.ok(t.good.updatedAt! <= live.checkedAt);
      assert.match(t.refused.error!, /Connection refused/, "ffmpeg's reason");
      assert.doesNotMatch(t.refused.error!, /@ 0x/, "without ffmpeg's context prefixes");
      assert.ok(
        t.refused.retryAt! > t.refused.updatedAt! && t.refused.retryAt! - t.refused.updatedAt! <= 30_000,
        "the next attempt's time, within the back-off",
      );
      assert.equal(t.silent.error, `no answer from 127.0.0.1 within 10 s`);
      assert.ok(seenSilent.has("connecting"), `the silent host was connecting first (${[...seenSilent]})`);

      // Reports are ordered: a late one from earlier in the epoch changes nothing; another epoch is fenced.
      const late = await internalEvent({
        kind: "multistream",
        sessionId: live.sessionId,
        epoch: 1,
        targetId: good.id,
        state: "error",
        error: "late",
        retryInMs: 2000,
        seq: 0,
      });
      assert.equal(late.status, 204);
      assert.equal(byName(await status()).good.state, "connected");
      const stale = await internalEvent({ kind: "multistream", sessionId: live.sessionId, epoch: 0, targetId: good.id, state: "error", error: "stale" });
      assert.equal(stale.status, 409);
      assert.equal(byName(await status()).good.state, "connected");

      // Owner only: another account, unknown ids and session ids are 404.
      assert.equal((await other.get(`stream/${stream.id}/multistream/status`)).status, 404);
      assert.equal((await api.get(`stream/no-such-stream/multistream/status`)).status, 404);
      assert.equal((await api.get(`stream/${live.sessionId}/multistream/status`)).status, 404);

      // Detached while live: gone from the view; disabled: shown as such.
      await api.patch(`multistream/target/${hole.id}`, { disabled: true });
      assert.equal(byName(await status()).silent.state, "disabled");
      assert.equal(byName(await status()).silent.error, undefined);
    } finally {
      await broadcaster.stop();
      await stopIngest();
      silent.close();
    }
    await streamIdle(api, stream.id);
    const after = await until("states cleared", async () => {
      const s = await status();
      return s.sessionId === null && s;
    });
    for (const t of after.targets) {
      assert.equal(t.state, "offline", t.name);
      assert.equal(t.error, undefined);
      assert.equal(t.retryAt, undefined);
    }
  });

  test("multistream.connected fires once per push connection: again after a real drop, not at the end of the broadcast", async () => {
    const api = await newAccount();
    const rx = await startReceiver();
    const hook = (await api.post("webhook", { name: "rx", url: rx.url, events: ["multistream.connected", "multistream.disconnected", "stream.idle"] })).body;
    const url = `rtmp://127.0.0.1:${await freePort()}/live/once-key`;
    const target = (await api.post("multistream/target", { url, name: "once" })).body;
    const stream = (await api.post("stream", { name: "once", multistream: { targets: [{ id: target.id, profile: "source" }] } })).body;
    const events = () => rx.received.map((r) => r.json.event as string);
    const count = (event: string) => events().filter((e) => e === event).length;
    let stopIngest = rtmpIngest(url);
    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await until("connected", async () => count("multistream.connected") === 1, 60_000);
      // The platform drops the connection: a disconnect, then a new connection once it listens again.
      await stopIngest();
      await until("disconnected", async () => count("multistream.disconnected") === 1, 60_000);
      stopIngest = rtmpIngest(url);
      await until("connected again", async () => count("multistream.connected") === 2, 60_000);
    } finally {
      await broadcaster.stop();
    }
    await streamIdle(api, stream.id);
    await until("stream.idle and the last disconnect", async () => count("stream.idle") === 1 && count("multistream.disconnected") === 2, 60_000);
    // A delivery asked for now arrives after whatever the end of the broadcast reported.
    assert.equal((await api.post(`webhook/${hook.id}/test`, { event: "stream.started" })).status, 202);
    await until("the fence event", async () => events().includes("stream.started"), 60_000);
    await stopIngest();
    await rx.close();
    assert.deepEqual(
      { connected: count("multistream.connected"), disconnected: count("multistream.disconnected") },
      { connected: 2, disconnected: 2 },
      events().join(", "),
    );
  });

  test("bad input on the status operation is a clear 4xx", async () => {
    const api = await newAccount();
    for (const id of ["%00", "x".repeat(5000), "..%2F..%2Fuser", "' OR 1=1 --", "%F0%9F%92%A9"]) {
      const res = await api.get(`stream/${id}/multistream/status`);
      assert.ok(res.status === 404 || res.status === 400, `${id.slice(0, 20)}: ${res.status}`);
      assert.ok(Array.isArray(res.body.errors), id.slice(0, 20));
    }
    const stream = (await api.post("stream", { name: "s" })).body;
    assert.equal((await api.post(`stream/${stream.id}/multistream/status`, {})).status, 405);
    const anonymous = await fetch(`${BASE}/api/stream/${stream.id}/multistream/status`);
    assert.equal(anonymous.status, 401);
    assert.equal((await api.get(`stream/${stream.id}/multistream/status`)).body.targets.length, 0);
  });
});
