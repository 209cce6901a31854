import assert from "node:assert/strict";
import dgram from "node:dgram";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import postgres from "postgres";
import { reloadConfig } from "@/lib/config";
import { FetchFailed, openUserUrl } from "@/lib/net/download";
import { guardedRequest, PrivateAddressError, privateHostReason } from "@/lib/net/guard";
import { freePort } from "@/lib/net/free-port";
import { call, newAccount } from "./support/client";
import { publish, rtmpReceiver, rtmpUrl, until } from "./support/media";
import { PRIVATE_HOSTS, RESERVED_HOSTS } from "./support/private-hosts";
import { startReceiver } from "./support/receiver";
import { startScratchApp, type ScratchApp } from "./support/scratch-app";

// This process checks the guard as a production deployment has it.
process.env.ALLOW_PRIVATE_URLS = "false";

describe("private address guard", () => {
  test("refuses loopback by literal address and by a name that resolves to it (checked at connect)", async () => {
    const receiver = await startReceiver();
    try {
      await assert.rejects(guardedRequest(receiver.url, { method: "POST", body: "{}", timeoutMs: 2000 }), PrivateAddressError);
      await assert.rejects(guardedRequest(`http://localhost:${receiver.port}/x`, { timeoutMs: 2000 }), PrivateAddressError);
      assert.equal(receiver.received.length, 0, "no request reached the receiver");
      assert.match((await privateHostReason("http://localhost:8080/x"))!, /this machine/);
      assert.match((await privateHostReason("http://10.0.0.8/x"))!, /private address/);
      assert.match((await privateHostReason("http://[::1]:80/x"))!, /private address/);
      assert.match((await privateHostReason("http://[::127.0.0.1]:80/x"))!, /private address/);
      assert.equal(await privateHostReason("https://93.184.216.34/x"), undefined);
    } finally {
      await receiver.close();
    }
  });

  test("a private address is refused before connecting: an open port and a closed one look the same", async () => {
    const open = await listenCounting();
    const closed = await freePort();
    try {
      for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "[::127.0.0.1]", "0x7f.1", "2130706433"]) {
        const errors = [];
        for (const port of [open.port, closed]) {
          const err = await guardedRequest(`http://${host}:${port}/v.mp4`, { timeoutMs: 2000 }).then(
            () => undefined,
            (e: Error) => e,
          );
          assert.ok(err instanceof PrivateAddressError, `${host}:${port}: ${err}`);
          errors.push(err.message);
        }
        assert.equal(errors[0], errors[1], host);
      }
      assert.equal(open.connections(), 0, "no connection was made to the open port");
    } finally {
      await open.close();
    }
  });
});

describe("redirects of a user's URL", () => {
  /** The operator's setting, as this process reads it. */
  const allowPrivateUrls = (allowed: boolean) => {
    process.env.ALLOW_PRIVATE_URLS = String(allowed);
    reloadConfig();
  };

  test("every hop is checked: a redirect to a private port fails the same whether it is open or closed, without connecting", async () => {
    const open = await listenCounting();
    const closed = await freePort();
    // The first hop stands in for a public server (tests reach loopback only): the guard is open
    // while it is asked and closed before it answers, so the hop it redirects to meets the guard.
    const redirector = http.createServer((req, res) => {
      allowPrivateUrls(false);
      const port = req.url === "/to-open" ? open.port : closed;
      res.writeHead(302, { location: `http://127.0.0.1:${port}/video.mp4` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(redirector.address() as net.AddressInfo).port}`;
    try {
      const messages = [];
      for (const hop of ["to-closed", "to-open"]) {
        allowPrivateUrls(true);
        const failure = await openUserUrl(`${base}/${hop}`, { timeoutMs: 5000, userAgent: "test" }).then(
          () => undefined,
          (err: Error) => err,
        );
        assert.ok(failure instanceof FetchFailed, `${hop}: ${failure}`);
        messages.push(failure.message);
      }
      assert.equal(messages[0], "127.0.0.1 is a private address, which cannot be fetched from");
      assert.equal(messages[1], messages[0], "the same error for an open and a closed port");
      assert.equal(open.connections(), 0, "the open port saw no connection");
    } finally {
      allowPrivateUrls(false);
      redirector.close();
      await open.close();
    }
  });
});

/** A TCP server that only counts connections (an internal service a scan would find). */
async function listenCounting(host = "127.0.0.1") {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

/** A UDP socket that counts datagrams (an SRT listener would get the handshake). */
async function udpCounting() {
  let count = 0;
  const socket = dgram.createSocket("udp4").on("message", () => count++);
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return { port: socket.address().port, datagrams: () => count, close: () => new Promise<void>((r) => socket.close(() => r())) };
}

describe("an app that does not allow private URLS", () => {
  let app: ScratchApp;
  let sql: postgres.Sql;
  let rtmpPort: number;
  before(async () => {
    rtmpPort = await freePort();
    app = await startScratchApp({
      MEDIA_NODE: "true",
      RTMP_PORT: String(rtmpPort),
      RTMP_HOST: "127.0.0.1",
      ALLOW_PRIVATE_URLS: "false",
    });
    sql = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  });
  after(async () => {
    await sql.end();
    await app.stop();
  });

  test("refuses webhooks to private addresses with a clear 400", async () => {
    const { cookie } = await newAccount(app.url);
    for (const url of [
      "http://127.0.0.1:9/x",
      "http://localhost/x",
      "http://192.168.0.10/x",
      "http://[::1]/x",
      "http://[::127.0.0.1]/x",
      "http://[64:ff9b::7f00:1]/x",
    ]) {
      const res = await call("POST", `${app.url}/api/webhook`, { cookie, body: { name: "x", url, events: ["stream.idle"] } });
      assert.equal(res.status, 400, url);
      assert.match(res.body.errors[0], /public address/);
    }
    const ok = await call("POST", `${app.url}/api/webhook`, { cookie, body: { name: "x", url: "https://93.184.216.34/x", events: ["stream.idle"] } });
    assert.equal(ok.status, 200);
  });

  test("refuses webhooks and targets to reserved addresses and to this machine's own, with a clear 400", async () => {
    const api = await newAccount(app.url);
    // The app runs on this machine: the addresses of its interfaces (nothing is sent to them: they are refused when created).
    const own = Object.values(os.networkInterfaces())
      .flat()
      .filter((nic) => nic && !nic.internal)
      .map((nic) => nic!.address);
    assert.ok(own.length, "this machine has a network interface besides loopback");
    for (const host of [...RESERVED_HOSTS, ...own.map((h) => (h.includes(":") ? `[${h}]` : h))]) {
      const hook = await api.post("webhook", { name: "x", url: `http://${host}/hook`, events: ["stream.idle"] });
      assert.equal(hook.status, 400, host);
      assert.match(hook.body.errors[0], /is (a private address|an address of this machine); webhooks must reach a public address$/, host);
      const target = await api.post("multistream/target", { url: `rtmp://${host}/live/x` });
      assert.equal(target.status, 400, host);
      assert.match(target.body.errors[0], /is (a private address|an address of this machine); multistream targets must reach a public address$/, host);
    }
    assert.deepEqual((await api.get("webhook")).body, [], "nothing was created");
    assert.deepEqual((await api.get("multistream/target")).body, []);
  });

  test("refuses multistream targets to private addresses, in every spelling, at creation and update", async () => {
    const api = await newAccount(app.url);
    const urls = [
      ...PRIVATE_HOSTS.map((host) => `rtmp://${host}:19999/live/x`),
      "rtmp://user:password@127.0.0.1/live/x",
      "rtmps://127.0.0.1/live/x",
      "rtmps://localhost:443/live/x",
      "srt://127.0.0.1:9000?streamid=x",
      "srt://[::1]:9000",
      "srt://2130706433:9000",
    ];
    const kept = (await api.post("multistream/target", { url: "rtmp://93.184.216.34/live/kept", name: "kept" })).body;
    for (const url of urls) {
      const created = await api.post("multistream/target", { url });
      assert.equal(created.status, 400, `POST ${url}`);
      assert.match(created.body.errors[0], /^url: .*(private address|this machine).*multistream targets must reach a public address$/, url);
      const patched = await api.patch(`multistream/target/${kept.id}`, { url, name: "changed" });
      assert.equal(patched.status, 400, `PATCH ${url}`);
    }
    const [row] = await sql`SELECT url, name FROM multistream_targets WHERE id = ${kept.id}`;
    assert.deepEqual({ ...row }, { url: "rtmp://93.184.216.34/live/kept", name: "kept" }, "refused updates change nothing");
    assert.equal((await api.get("multistream/target")).body.length, 1);

    for (const url of [
      "rtmp://93.184.216.34/live/x",
      "rtmps://[2606:4700:4700::1111]/live/x",
      "rtmp://[64:ff9b::5db8:d822]/live/x",
      "srt://93.184.216.34:9000",
      "rtmp://live.example.com/app/key",
    ]) {
      assert.equal((await api.post("multistream/target", { url })).status, 201, url);
    }
    assert.equal((await api.patch(`multistream/target/${kept.id}`, { url: "rtmps://93.184.216.34/live/k2" })).status, 204);
  });

  test("a target that points at a private address anyway (a DNS name that changed) is never connected to", async () => {
    const api = await newAccount(app.url);
    const me = (await api.get("user/me")).body;
    // Deliveries to this URL are refused too, but each attempt is logged with the event it carried.
    const hookId = `hook-${Date.now()}`;
    await sql`INSERT INTO webhooks (id, user_id, name, url, events, shared_secret, created_at)
      VALUES (${hookId}, ${me.id}, 'log', 'http://127.0.0.1:9/hook', ${["multistream.error", "multistream.connected"]}, 'whsec_test', ${Date.now()})`;

    const rtmpTargetPort = await freePort();
    const out = path.join(app.dataDir, "pushed.flv");
    const receiver = rtmpReceiver(rtmpTargetPort, out);
    const tls = await listenCounting();
    const udp = await udpCounting();
    const pointed = {
      name: `rtmp://localhost:${rtmpTargetPort}/live/target`,
      integer: `rtmp://2130706433:${rtmpTargetPort}/live/target`,
      mapped: `rtmp://[::ffff:127.0.0.1]:${rtmpTargetPort}/live/target`,
      rtmps: `rtmps://127.0.0.1:${tls.port}/live/target`,
      srt: `srt://127.0.0.1:${udp.port}?streamid=target`,
    };
    const targets: Record<string, string> = {};
    for (const [name, url] of Object.entries(pointed)) {
      const t = (await api.post("multistream/target", { url: "rtmp://93.184.216.34/live/target", name })).body;
      await sql`UPDATE multistream_targets SET url = ${url} WHERE id = ${t.id}`;
      targets[t.id] = name;
    }
    const stream = (
      await api.post("stream", {
        name: "guarded",
        multistream: { targets: Object.keys(targets).map((id) => ({ id, profile: "source" })) },
      })
    ).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey, rtmpPort));
    try {
      const errors = await until(
        "multistream.error for every target",
        async () => {
          const log = (await api.get(`webhook/${hookId}/log`)).body as { request: { body: string } }[];
          const events = log.map((d) => JSON.parse(d.request.body));
          const byTarget = new Map(events.filter((e) => e.event === "multistream.error").map((e) => [e.payload.target.id, e.payload.error as string]));
          return byTarget.size === Object.keys(targets).length ? byTarget : undefined;
        },
        60_000,
        500,
      );
      for (const [id, error] of errors) assert.match(error, /private address (127\.0\.0\.1|::ffff:127\.0\.0\.1)/, `${targets[id]}: ${error}`);
      // The owner sees it on the stream too: an error with the reason and the next attempt, not an endless "connecting".
      const status = (await api.get(`stream/${stream.id}/multistream/status`)).body as { targets: { id: string; state: string; error?: string }[] };
      assert.equal(status.targets.length, Object.keys(targets).length);
      for (const t of status.targets) {
        assert.ok(["retrying", "connecting"].includes(t.state), `${targets[t.id]}: ${t.state}`);
        assert.match(t.error ?? "", /private address/, targets[t.id]);
      }
      // Long enough for any push that got through to have connected and written something.
      await new Promise((r) => setTimeout(r, 5000));
      const log = (await api.get(`webhook/${hookId}/log`)).body as { event: string }[];
      assert.ok(!log.some((d) => d.event === "multistream.connected"), "no target reported connected");
      assert.equal(fs.existsSync(out), false, "the RTMP receiver got nothing");
      assert.equal(receiver.proc.exitCode, null, "the RTMP receiver is still waiting for its first connection");
      assert.equal(tls.connections(), 0, "no connection to the rtmps port");
      assert.equal(udp.datagrams(), 0, "no SRT handshake");
    } finally {
      await broadcaster.stop();
      await receiver.stop();
      await tls.close();
      await udp.close();
    }
  });
});
