import assert from "node:assert/strict";
import net from "node:net";
import { describe, test } from "node:test";
import { reloadConfig } from "@/lib/config";
import { runFfmpeg } from "@/lib/av/ffmpeg";
import { freePort } from "@/lib/net/free-port";
import { routeToTarget, rtmpTcUrl, type TargetRoute } from "@/lib/targets/connect";
import { newAccount } from "./support/client";

describe("multistream targets", () => {
  test("POST validates the url, defaults the name to the host and echoes the url once", async () => {
    const api = await newAccount();
    const res = await api.post("multistream/target", { url: "rtmp://live.example.com:1935/app/secret-key" });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, "live.example.com:1935");
    assert.equal(res.body.url, "rtmp://live.example.com:1935/app/secret-key");
    assert.equal(res.body.disabled, false);
    assert.ok(res.body.userId);
    for (const path of [`multistream/target/${res.body.id}`]) assert.equal((await api.get(path)).body.url, undefined);
    assert.equal((await api.get("multistream/target")).body[0].url, undefined);

    const named = await api.post("multistream/target", { url: "srt://srt.example.com:9000?streamid=x", name: "My SRT" });
    assert.equal(named.status, 201);
    assert.equal(named.body.name, "My SRT");

    for (const url of [
      undefined,
      "",
      "http://example.com/live",
      "ftp://x",
      "rtmp://",
      "not a url",
      42,
      "srt://srt.example.com:9000?mode=listener",
      "srt://srt.example.com:9000?streamid=x&mode=rendezvous",
    ]) {
      const bad = await api.post("multistream/target", { url });
      assert.equal(bad.status, 422, String(url));
    }
  });

  test("PATCH changes given fields only; the url stays write-only", async () => {
    const api = await newAccount();
    const t = (await api.post("multistream/target", { url: "rtmp://a.example.com/live/k", name: "A" })).body;
    assert.equal((await api.patch(`multistream/target/${t.id}`, { disabled: true })).status, 204);
    let now = (await api.get(`multistream/target/${t.id}`)).body;
    assert.equal(now.disabled, true);
    assert.equal(now.name, "A");
    assert.equal((await api.patch(`multistream/target/${t.id}`, { url: "rtmps://b.example.com/live/k2", name: "B" })).status, 204);
    now = (await api.get(`multistream/target/${t.id}`)).body;
    assert.equal(now.name, "B");
    assert.equal(now.disabled, true);
    assert.equal(now.url, undefined);
    assert.equal((await api.patch(`multistream/target/${t.id}`, { url: "http://nope" })).status, 422);
    assert.equal((await api.patch(`multistream/target/${t.id}`, {})).status, 204);
    assert.equal((await api.patch("multistream/target/unknown", { name: "x" })).status, 404);
  });

  test("list pages with a Link header", async () => {
    const api = await newAccount();
    for (let i = 0; i < 3; i++) await api.post("multistream/target", { url: `rtmp://h${i}.example.com/live/k` });
    const first = await api.get("multistream/target?limit=2");
    assert.equal(first.body.length, 2);
    const next = /<\/api\/([^>]+)>; rel="next"/.exec(first.headers.get("link")!)![1];
    const second = await api.get(next);
    assert.equal(second.body.length, 1);
    assert.equal(second.headers.get("link"), null);
    const cursor = new URLSearchParams(next.split("?")[1]).get("cursor");
    assert.deepEqual((await api.get(`multistream/target?limit=2&cursor=${cursor}`)).body, second.body);
  });

  test("DELETE refuses a target a stream still uses, then works once it is detached", async () => {
    const api = await newAccount();
    const t = (await api.post("multistream/target", { url: "rtmp://a.example.com/live/k" })).body;
    const s = (await api.post("stream", { name: "uses it", multistream: { targets: [{ id: t.id, profile: "source" }] } })).body;
    const refused = await api.delete(`multistream/target/${t.id}`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0], /still used by stream "uses it"/);
    assert.equal((await api.get(`multistream/target/${t.id}`)).status, 200);
    await api.patch(`stream/${s.id}`, { multistream: { targets: [] } });
    assert.equal((await api.delete(`multistream/target/${t.id}`)).status, 204);
    assert.equal((await api.get(`multistream/target/${t.id}`)).status, 404);
  });
});

/**
 * A stand-in RTMP server: answers the handshake and records the app and tcUrl
 * of the connect command, then hangs up.
 */
async function rtmpConnectRecorder() {
  const connects: { app?: string; tcUrl?: string; from?: string }[] = [];
  const server = net.createServer((socket) => {
    let buf = Buffer.alloc(0);
    let shook = false;
    socket.on("error", () => undefined);
    socket.on("data", (data) => {
      buf = Buffer.concat([buf, data]);
      if (!shook && buf.length >= 1537) {
        shook = true;
        socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(1536), buf.subarray(1, 1537)]));
      }
      const chunked = buf.subarray(1537 + 1536);
      if (chunked.length < 12) return;
      // One message on chunk stream 3: 12-byte header, then 128-byte chunks each after a 1-byte header.
      const length = chunked.readUIntBE(4, 3);
      const parts: Buffer[] = [];
      for (let at = 12, left = length; left > 0 && at < chunked.length; at += 129, left -= 128) parts.push(chunked.subarray(at, at + Math.min(128, left)));
      const message = Buffer.concat(parts);
      if (message.length < length) return;
      const field = (key: string) => {
        const marker = Buffer.concat([Buffer.from([0, key.length]), Buffer.from(key), Buffer.from([2])]);
        const i = message.indexOf(marker);
        return i < 0 ? undefined : message.subarray(i + marker.length + 2, i + marker.length + 2 + message.readUInt16BE(i + marker.length)).toString();
      };
      connects.push({ app: field("app"), tcUrl: field("tcUrl"), from: socket.remoteAddress });
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, connects, close: () => new Promise((r) => server.close(r)) };
}

/** A TCP server that keeps the first bytes of each connection. */
async function firstBytesRecorder() {
  const received: Buffer[] = [];
  const server = net.createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", (data) => {
      received.push(data);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, received, close: () => new Promise((r) => server.close(r)) };
}

/** One ffmpeg push of a tiny picture, as the media node runs it (route options and environment). */
async function pushOnce(url: string, route?: TargetRoute) {
  const args = ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=s=16x16:r=1", "-frames:v", "1", "-c:v", "flv", "-f", "flv"];
  const proc = runFfmpeg(route ? [...args, ...route.options, route.url] : [...args, url], { env: route?.env });
  await proc.exited;
}

describe("how the media node connects to a target (ffmpeg 5.1)", () => {
  test("an RTMP push pinned to the checked address sends the tcUrl ffmpeg sends for the name", async () => {
    const server = await rtmpConnectRecorder();
    try {
      const paths = [
        "/live/key",
        "/live",
        "/app/instance/key",
        "/app/a:b/c",
        "/live/key?token=1",
        "/app?x=1/key",
        "/ondemand/x",
        "/a/b?slist=foo&x=1",
        "",
        "/a/b/c/d",
      ];
      for (const p of paths) {
        const url = `rtmp://user:pw@localhost:${server.port}${p}`;
        const route = await routeToTarget(url);
        assert.equal(route.url, `rtmp://user:pw@127.0.0.1:${server.port}${p}`);
        await pushOnce(url);
        await pushOnce(url, route);
        const [byName, pinned] = server.connects.splice(0);
        assert.ok(byName && pinned, `${p}: both pushes connected`);
        assert.deepEqual(pinned, byName, p);
        assert.equal(rtmpTcUrl(url), byName.tcUrl, p);
      }
    } finally {
      await server.close();
    }
  });

  test("an rtmps push keeps the name for TLS (SNI) but goes through a tunnel to the checked address only", async () => {
    const server = await firstBytesRecorder();
    try {
      const route = await routeToTarget(`rtmps://localhost:${server.port}/live/key`);
      assert.equal(route.url, `rtmps://localhost:${server.port}/live/key`);
      await pushOnce(route.url, route);
      await route.close();
      const [hello] = server.received;
      assert.ok(hello, "the tunnel reached the target");
      assert.equal(hello[0], 0x16, "a TLS handshake");
      assert.ok(hello.includes("localhost"), "with the target's name as SNI");

      const closed = await freePort();
      const refused = await routeToTarget(`rtmps://localhost:${closed}/live/key`);
      await pushOnce(refused.url, refused);
      await refused.close();
      assert.match(refused.failure() ?? "", new RegExp(`localhost \\(127\\.0\\.0\\.1:${closed}\\): connect ECONNREFUSED`));
    } finally {
      await server.close();
    }
  });

  test("the rtmps tunnel checks the address again as ffmpeg connects through it", async () => {
    const server = await firstBytesRecorder();
    const route = await routeToTarget(`rtmps://localhost:${server.port}/live/key`);
    const allowPrivateUrls = (allowed: boolean) => {
      process.env.ALLOW_PRIVATE_URLS = String(allowed);
      reloadConfig();
    };
    try {
      // What the guard refuses changed after the route was made (here the operator's setting; in
      // production, this host's interfaces gaining the address).
      allowPrivateUrls(false);
      await pushOnce(route.url, route);
      assert.equal(route.failure(), "refusing to connect to localhost: it resolves to private address 127.0.0.1");
      assert.equal(server.received.length, 0, "the tunnel opened nothing");
    } finally {
      allowPrivateUrls(true);
      await route.close();
      await server.close();
    }
  });

  test("srt and IPv6 URLs get the address in place of the host; unknown hosts and protocols are errors", async () => {
    assert.equal((await routeToTarget("srt://localhost:9000?streamid=x")).url, "srt://127.0.0.1:9000?streamid=x");
    const v6 = await routeToTarget("rtmp://[::1]:1935/live/key");
    assert.equal(v6.url, "rtmp://[::1]:1935/live/key");
    assert.deepEqual(v6.options, ["-rtmp_tcurl", "rtmp://[::1]:1935/live"]);
    assert.equal((await routeToTarget("rtmp://a@b@2130706433/live/key")).url, "rtmp://a@b@127.0.0.1/live/key");
    await assert.rejects(routeToTarget("rtmp://no-such-host.invalid/live/key"));
    await assert.rejects(routeToTarget("http://localhost/x"), /unsupported protocol/);
  });
});
