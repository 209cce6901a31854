import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { exportToIpfs } from "@/lib/assets/transfer/export";
import { newAccount, type Api } from "./support/client";
// Closes the database pool this process opens (exportToIpfs below).
import "./support/db";
import { kuboCid } from "./support/unixfs";
import { digestOf, makeMedia, putFile, settled, settledTask, tmpDir } from "./support/vod";
import { listenAsPinningService } from "./support/pinning";

const tmp = tmpDir();
/** Closed after the tests, passed or not: an open server would keep the test process alive. */
const servers: http.Server[] = [];
after(() => servers.forEach((s) => (s.close(), s.closeAllConnections())));

/** A plain file server standing in for the web: /video.mp4, a redirect to it, a 404, a slow 500. */
async function fileServer(file: string) {
  const server = http.createServer((req, res) => {
    if (req.url === "/redirect") return res.writeHead(302, { location: "/video.mp4" }).end();
    if (req.url === "/video.mp4") {
      res.writeHead(200, { "content-type": "video/mp4", "content-length": fs.statSync(file).size });
      return fs.createReadStream(file).pipe(res);
    }
    res.writeHead(404).end("no such file");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Receives exports: stores each body and answers with the statuses given, in turn (the last repeats). */
async function exportReceiver(answers: number[]) {
  const bodies: { method: string; headers: http.IncomingHttpHeaders; sha256: string; size: number }[] = [];
  const server = http.createServer((req, res) => {
    const hash = createHash("sha256");
    let size = 0;
    req.on("data", (c: Buffer) => {
      hash.update(c);
      size += c.length;
    });
    req.on("end", () => {
      bodies.push({ method: req.method!, headers: req.headers, sha256: hash.digest("hex"), size });
      res.writeHead(answers[Math.min(bodies.length - 1, answers.length - 1)]).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload/video.mp4?sig=secret`, bodies };
}

async function readyAsset(api: Api, file: string) {
  const { url, asset } = (await api.post("asset/request-upload", { name: "export me" })).body;
  assert.equal((await putFile(url, file)).status, 200);
  const ready = await settled(api, asset.id);
  assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
  return ready;
}

describe("imports", () => {
  test("an import from a URL (through a redirect) is downloaded, hashed and made playable", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 3 });
    const server = await fileServer(file);
    const res = await api.post("asset/import", { url: `${server.base}/redirect`, name: "imported" });
    assert.equal(res.status, 201);
    assert.equal(res.body.asset.source.type, "url");
    assert.equal(res.body.task.type, "import");
    assert.equal(res.body.task.params.import.url, `${server.base}/redirect`);
    const ready = await settled(api, res.body.asset.id);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    const local = digestOf(file);
    assert.deepEqual(
      ready.hash.map((h: { hash: string }) => h.hash),
      [local.md5, local.sha256],
    );
    assert.equal(ready.size, local.size);
    const task = await settledTask(api, res.body.task.id);
    assert.equal(task.status.phase, "completed");
  });

  test("unreachable or invalid sources fail the task with a clear message", async () => {
    const api = await newAccount();
    const server = await fileServer(await makeMedia(tmp, "random"));
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const deadPort = (closed.address() as AddressInfo).port;
    closed.close();
    const cases = [
      { url: `${server.base}/missing.mp4`, expect: /Import failed: the URL answered 404/ },
      { url: `http://127.0.0.1:${deadPort}/v.mp4`, expect: /Import failed: 127\.0\.0\.1:\d+ refused the connection/ },
      { url: `${server.base}/video.mp4`, expect: /Cannot be decoded: it is not a video file ffmpeg recognises/ },
    ];
    await Promise.all(
      cases.map(async ({ url, expect }) => {
        const { asset, task } = (await api.post("asset/import", { url, name: "bad" })).body;
        const failed = await settledTask(api, task.id);
        assert.equal(failed.status.phase, "failed", url);
        assert.match(failed.status.errorMessage, expect);
        const a = (await api.get(`asset/${asset.id}`)).body;
        assert.equal(a.status.phase, "failed");
        assert.equal(a.status.errorMessage, failed.status.errorMessage);
      }),
    );
    for (const body of [{ url: "ftp://example.com/v.mp4", name: "x" }, { url: "https://example.com/v.mp4" }, { name: "x" }]) {
      assert.equal((await api.post("asset/import", body)).status, 422);
    }
    assert.equal((await api.get("asset")).body.length, 3, "refused imports create nothing");
  });
});

describe("exports", () => {
  test("a custom export arrives byte-identical; 5xx is retried, 4xx is final; secrets are not shown", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 2 });
    const asset = await readyAsset(api, file);
    const local = digestOf(file);

    const flaky = await exportReceiver([503, 200]);
    const res = await api.post(`asset/${asset.id}/export`, { custom: { url: flaky.url, headers: { authorization: "Bearer receiver-secret" } } });
    assert.equal(res.status, 201);
    assert.equal(res.body.task.type, "export");
    assert.equal(res.body.task.inputAssetId, asset.id);
    assert.doesNotMatch(JSON.stringify(res.body), /receiver-secret|sig=secret/);
    const done = await settledTask(api, res.body.task.id, 90_000);
    assert.equal(done.status.phase, "completed", done.status.errorMessage);
    assert.equal(flaky.bodies.length, 2);
    const last = flaky.bodies[1];
    assert.deepEqual([last.method, last.sha256, last.size], ["PUT", local.sha256, local.size]);
    assert.equal(last.headers.authorization, "Bearer receiver-secret");
    assert.doesNotMatch(JSON.stringify(done), /receiver-secret|sig=secret/);

    const refusing = await exportReceiver([403]);
    const refused = await api.post(`asset/${asset.id}/export`, { custom: { url: refusing.url, method: "POST" } });
    const failed = await settledTask(api, refused.body.task.id);
    assert.equal(failed.status.phase, "failed");
    assert.match(failed.status.errorMessage, /403/);
    assert.equal(refusing.bodies.length, 1, "4xx is not retried");

    assert.equal((await api.post(`asset/${asset.id}/export`, {})).status, 422);
    assert.equal((await api.post(`asset/${asset.id}/export`, { ipfs: {}, custom: { url: flaky.url } })).status, 422);
    const waiting = (await api.post("asset/request-upload", { name: "not yet" })).body.asset;
    const notReady = await api.post(`asset/${waiting.id}/export`, { ipfs: {} });
    assert.equal(notReady.status, 400);
    assert.match(notReady.body.errors[0], /not ready/);
  });

  test("IPFS export: kubo's CID for the bytes, served by the gateway, NFT metadata merged, pinned with the given credentials", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 3 });
    const asset = await readyAsset(api, file);
    const pins: { path: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    const pinata = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        pins.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ IpfsHash: `QmPinned${pins.length}`, PinSize: 1, Timestamp: new Date().toISOString() }));
      });
    });
    await listenAsPinningService(pinata);
    servers.push(pinata);

    const res = await api.post(`asset/${asset.id}/export`, {
      ipfs: { nftMetadata: { description: "mine", properties: { artist: "Ada" } }, pinning: { apiKey: "pk-123", apiSecret: "sk-456" } },
    });
    assert.equal(res.status, 201);
    assert.doesNotMatch(JSON.stringify(res.body), /pk-123|sk-456/);
    const done = await settledTask(api, res.body.task.id);
    assert.equal(done.status.phase, "completed", done.status.errorMessage);
    const out = done.output.export.ipfs;
    assert.equal(out.videoFileCid, kuboCid(fs.readFileSync(file)), "the CID an independent encoder computes");
    assert.equal(out.videoFileUrl, `ipfs://${out.videoFileCid}`);

    const served = await fetch(out.videoFileGatewayUrl);
    assert.equal(
      createHash("sha256")
        .update(Buffer.from(await served.arrayBuffer()))
        .digest("hex"),
      digestOf(file).sha256,
    );
    const metadata = await (await fetch(out.nftMetadataGatewayUrl)).json();
    assert.equal(metadata.animation_url, `ipfs://${out.videoFileCid}`);
    assert.equal(metadata.description, "mine");
    assert.equal(metadata.properties.artist, "Ada");
    assert.equal(metadata.properties.video, `ipfs://${out.videoFileCid}`);
    assert.equal(out.nftMetadataCid, kuboCid(Buffer.from(JSON.stringify(metadata))));

    const exported = (await api.get(`asset/${asset.id}`)).body;
    assert.equal(exported.storage.ipfs.cid, out.videoFileCid);
    assert.equal(exported.storage.ipfs.nftMetadata.cid, out.nftMetadataCid);
    assert.deepEqual(exported.status.storage.ipfs, {
      taskIds: { last: done.id },
      data: { videoFileCid: out.videoFileCid, nftMetadataCid: out.nftMetadataCid },
    });

    assert.deepEqual(
      pins.map((p) => p.path),
      ["/pinning/pinFileToIPFS", "/pinning/pinJSONToIPFS"],
    );
    for (const p of pins) {
      assert.equal(p.headers.pinning_api_key, "pk-123", "the spec's header names");
      assert.equal(p.headers.pinning_secret_api_key, "sk-456");
      assert.equal(p.headers.pinata_api_key, "pk-123", "and Pinata's own");
    }
    assert.ok(pins[0].body.includes(fs.readFileSync(file)), "the file's bytes in the multipart body");
    assert.deepEqual(JSON.parse(pins[1].body.toString()).pinataContent, metadata);
    assert.doesNotMatch(JSON.stringify(await api.get(`task/${done.id}`)), /pk-123|sk-456/);

    // a JWT goes as a bearer token; a refused one fails the task without echoing it
    pins.length = 0;
    const again = await settledTask(api, (await api.post(`asset/${asset.id}/export`, { ipfs: { pinning: { jwt: "jwt-789" } } })).body.task.id);
    assert.equal(again.status.phase, "completed");
    assert.equal(pins[0].headers.authorization, "Bearer jwt-789");
  });
  test("an asset whose playback policy limits its viewers is not exported to IPFS, where anyone with the CID could play it", async () => {
    const api = await newAccount();
    const asset = await readyAsset(api, await makeMedia(tmp, "mp4", { seconds: 1 }));
    // Nothing is sent to it: it only has to exist for the policy.
    const hook = (await api.post("webhook", { name: "gate", url: "http://127.0.0.1:9/gate", events: ["playback.accessControl"] })).body;
    const policies: [object, string][] = [
      [{ type: "jwt" }, "a JWT"],
      [{ type: "webhook", webhookId: hook.id }, "a webhook"],
      [{ type: "public", allowedOrigins: ["https://shop.example"] }, "its allowed origins"],
    ];
    for (const [playbackPolicy, limit] of policies) {
      assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy })).status, 200);
      const res = await api.post(`asset/${asset.id}/export`, { ipfs: { pinning: { jwt: "jwt-789" } } });
      assert.equal(res.status, 400, limit);
      assert.equal(
        res.body.errors[0],
        `ipfs: this asset's playback policy limits its viewers (${limit}); on IPFS it would be public to anyone with its CID. Make it public first, or export it to a URL of yours`,
      );
    }
    assert.deepEqual(
      (await api.get("task")).body.filter((t: { type: string }) => t.type === "export"),
      [],
      "no export task was made",
    );
    assert.equal((await api.get(`asset/${asset.id}`)).body.storage?.ipfs, undefined);

    // The owner's own URL is theirs to send it to.
    const receiver = await exportReceiver([200]);
    const custom = await settledTask(api, (await api.post(`asset/${asset.id}/export`, { custom: { url: receiver.url } })).body.task.id);
    assert.equal(custom.status.phase, "completed", custom.status.errorMessage);

    // Made public, it goes; gated again before the export runs, the export refuses it then.
    assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy: null })).status, 200);
    const done = await settledTask(api, (await api.post(`asset/${asset.id}/export`, { ipfs: {} })).body.task.id);
    assert.equal(done.status.phase, "completed", done.status.errorMessage);
    assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy: { type: "jwt" } })).status, 200);
    assert.deepEqual(await exportToIpfs({ taskId: done.id, assetId: asset.id, export: { ipfs: {} } }), {
      ok: false,
      reason:
        "Export failed: this asset's playback policy limits its viewers (a JWT); on IPFS it would be public to anyone with its CID. Make it public first, or export it to a URL of yours",
    });
  });
});
