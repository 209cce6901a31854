// biome-ignore-all format: ffmpeg command lines, each option beside its value
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { Api, call, newAccount } from "./support/client";
import { startCluster, type Cluster } from "./support/cluster";
import { startReceiver } from "./support/receiver";
import { digestOf, makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * "Stateless app instances": two app processes with no shared directory (each its
 * own DATA_DIR, no media node) on one database and one bucket, with the same
 * AUTH_SECRET and MEDIA_SECRET. Any of them must take any request: a tus upload
 * goes on where another instance left it, one upload is written by one request at
 * a time whichever instance it reaches, background work and webhooks run once.
 */
const tmp = tmpDir();
const exec = promisify(execFile);
const tusHeaders = { "tus-resumable": "1.0.0" };
const MiB = 1024 * 1024;

let cluster: Cluster;
const url = (i: number) => cluster.apps[i].url;
/** The first two tests' file, each into an asset of its own. */
let big: { file: string; bytes: Buffer };

before(async () => {
  const media = bigMedia(); // made while the cluster starts
  media.catch(() => {}); // awaited once the cluster is up, and so stopped by after() whatever happens
  cluster = await startCluster({ apps: 2, nodes: 0 });
  const file = await media;
  big = { file, bytes: fs.readFileSync(file) };
  assert.ok(big.bytes.length > 2 * 6 * MiB, `${big.bytes.length} bytes: S3's 5 MiB part minimum on either side of the half, and after 6 MiB`);
});

after(() => cluster?.stop());

/**
 * A 15 MB H.264/AAC file: more than S3's 5 MiB part minimum on either side of the half. The
 * bytes come from lossless noise in a small picture (4 s of 320x180), so what the app makes of
 * it stays cheap: one 180p rendition, where a 720p source would get a three-rung ladder.
 */
async function bigMedia() {
  const file = path.join(tmp, `big-${randomBytes(3).toString("hex")}.mp4`);
  const input = (src: string) => ["-f", "lavfi", "-i", `${src}:duration=4`];
  await exec("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y", ...input("testsrc2=size=320x180:rate=30"), ...input("sine=frequency=440:sample_rate=48000"),
    "-vf", "noise=alls=100:allf=t", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "60", "-qp", "0",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ]);
  return file;
}

async function tusCreate(endpoint: string, size: number) {
  const res = await fetch(endpoint, { method: "POST", headers: { ...tusHeaders, "upload-length": String(size) } });
  assert.equal(res.status, 201, await res.text());
  return new URL(res.headers.get("location")!).pathname;
}

/** The upload's URL on instance `i` (the same path: any instance serves it). */
const on = (i: number, uploadPath: string) => `${url(i)}${uploadPath}`;

async function tusOffset(target: string) {
  const res = await fetch(target, { method: "HEAD", headers: tusHeaders });
  assert.equal(res.status, 200);
  return Number(res.headers.get("upload-offset"));
}

/** A PATCH of `bytes` at `offset`, sent in pieces `pauseMs` apart; what it was answered, or that its connection was cut. */
function patch(target: string, offset: number, bytes: Buffer, pauseMs = 0): Promise<{ status: number; offset?: number; endedAt: number } | { cut: string; endedAt: number }> {
  return new Promise((resolve) => {
    const req = http.request(target, {
      method: "PATCH",
      headers: { ...tusHeaders, "upload-offset": String(offset), "content-type": "application/offset+octet-stream", "content-length": String(bytes.length) },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, offset: res.headers["upload-offset"] ? Number(res.headers["upload-offset"]) : undefined, endedAt: Date.now() }));
    });
    req.on("error", (err) => resolve({ cut: err.message, endedAt: Date.now() }));
    void (async () => {
      const piece = 256 * 1024;
      for (let at = 0; at < bytes.length && !req.destroyed; at += piece) {
        if (!req.write(bytes.subarray(at, at + piece))) await new Promise((r) => req.once("drain", r));
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
      req.end();
    })();
  });
}

/** Through instance `i`: the asset's HLS playlist and a segment of it, as a player would fetch them. */
async function playsThrough(i: number, playbackId: string) {
  let playlistUrl = `${url(i)}/asset/${playbackId}/hls/index.m3u8`;
  for (let depth = 0; depth < 2; depth++) {
    const res = await fetch(playlistUrl);
    assert.equal(res.status, 200, `${playlistUrl} on instance ${i + 1}`);
    const lines = (await res.text()).split("\n").filter((l) => l && !l.startsWith("#"));
    const segment = lines.find((l) => l.split("?")[0].endsWith(".ts"));
    if (segment) {
      const seg = await fetch(new URL(segment, playlistUrl));
      assert.equal(seg.status, 200);
      assert.ok((await seg.arrayBuffer()).byteLength > 1000, "a real segment");
      return;
    }
    playlistUrl = new URL(lines[0], playlistUrl).toString();
  }
  assert.fail(`no segment in the playlists of ${playbackId}`);
}

async function downloadedMd5(api: Api, assetId: string, through: number) {
  const asset = (await api.get(`asset/${assetId}`)).body;
  const res = await fetch(`${url(through)}/asset/${asset.playbackId}/video`);
  assert.equal(res.status, 200);
  return createHash("md5").update(Buffer.from(await res.arrayBuffer())).digest("hex");
}

/** Files under a data directory named after the upload (as tus parts on disk are). */
const localFilesOf = (dataDir: string, uploadPath: string) =>
  (fs.readdirSync(dataDir, { recursive: true, encoding: "utf8" }) as string[]).filter((f) => f.includes(path.basename(uploadPath)));

describe("several app instances, no shared disk", () => {
  test("a tus upload half-sent to one instance is resumed and finished on the other, and plays through both", async () => {
    const api = await newAccount(url(1));
    const { file, bytes } = big;
    const half = Math.floor(bytes.length / 2);
    // Requested from instance 2, created on instance 1: the upload token is valid on every instance.
    const { tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "across instances" })).body;
    const upload = await tusCreate(tusEndpoint.replace(url(1), url(0)), bytes.length);

    const first = await patch(on(0, upload), 0, bytes.subarray(0, half));
    assert.ok("status" in first && first.status === 204, JSON.stringify(first));
    assert.equal(await tusOffset(on(1, upload)), half, "instance 2 sees what instance 1 received");
    assert.deepEqual(localFilesOf(cluster.appDataDirs[0], upload), [], "no tus parts on instance 1's disk");
    const inBucket = await (await fetch(`${cluster.env.S3_ENDPOINT}/castline?list-type=2&prefix=tus/`)).text();
    assert.ok(inBucket.includes(asset.id), "the parts are in the bucket");

    const rest = await patch(on(1, upload), half, bytes.subarray(half));
    assert.ok("status" in rest && rest.status === 204 && rest.offset === bytes.length, JSON.stringify(rest));
    const ready = await settled(api, asset.id);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    assert.equal(ready.hash[0].hash, digestOf(file).md5);
    await playsThrough(0, ready.playbackId);
    await playsThrough(1, ready.playbackId);
    assert.equal(await downloadedMd5(api, asset.id, 0), digestOf(file).md5);
    // The finished upload's parts are gone from the bucket, and were never on either disk.
    const left = await (await fetch(`${cluster.env.S3_ENDPOINT}/castline?list-type=2&prefix=tus/`)).text();
    assert.ok(!left.includes(asset.id), left);
    for (const dataDir of cluster.appDataDirs) assert.deepEqual(localFilesOf(dataDir, upload), []);
  });

  test("two PATCHes of one upload on two instances at once: one waits or is refused, and the file comes out whole", async () => {
    const api = await newAccount(url(0));
    const { file, bytes } = big;
    const start = 6 * MiB;
    const { tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "raced" })).body;
    const upload = await tusCreate(tusEndpoint, bytes.length);
    const first = await patch(on(0, upload), 0, bytes.subarray(0, start));
    assert.ok("status" in first && first.status === 204, JSON.stringify(first));
    assert.equal(await tusOffset(on(1, upload)), start);

    // The same bytes from the same offset, as two clients (or a client and its retry) would send them.
    const slow = patch(on(0, upload), start, bytes.subarray(start), 40);
    await new Promise((r) => setTimeout(r, 500));
    const fast = patch(on(1, upload), start, bytes.subarray(start));
    const answers = await Promise.all([slow, fast]);
    const wrote = (a: (typeof answers)[number]) => "status" in a && a.status === 204 && a.offset! > start;
    const advanced = answers.filter(wrote);
    assert.ok(advanced.length <= 1, `both wrote from the same offset: ${JSON.stringify(answers)}`);
    // Without a lock shared by the instances, the fast one would have written while the slow one still sent.
    if (wrote(answers[1])) assert.ok(answers[1].endedAt >= answers[0].endedAt, `the second did not wait: ${JSON.stringify(answers)}`);

    // The client then does what tus says: asks where the upload is, and sends the rest.
    const head = await fetch(on(1, upload), { method: "HEAD", headers: tusHeaders });
    if (head.status === 200) {
      const offset = Number(head.headers.get("upload-offset"));
      if (advanced.length) assert.equal(offset, (advanced[0] as { offset: number }).offset);
      if (offset < bytes.length) {
        const rest = await patch(on(1, upload), offset, bytes.subarray(offset));
        assert.ok("status" in rest && rest.status === 204, JSON.stringify(rest));
      }
    } else {
      // Finished (and moved to the asset's storage) by one of the two.
      assert.equal(head.status, 404);
      assert.equal(advanced.length, 1);
    }
    const ready = await settled(api, asset.id);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    assert.equal(await downloadedMd5(api, asset.id, 1), digestOf(file).md5, "the stored file is the source, byte for byte");
  });

  test("background work runs once: each webhook event of uploads on either instance is delivered exactly once", async () => {
    const api = await newAccount(url(0));
    const rx = await startReceiver();
    try {
      const hook = await api.post("webhook", { name: "rx", url: rx.url, events: ["asset.created", "asset.ready", "task.spawned", "task.completed"] });
      assert.equal(hook.status, 200, JSON.stringify(hook.body));
      const file = await makeMedia(tmp, "mp4", { seconds: 2 });
      const size = fs.statSync(file).size;
      const assetIds: string[] = [];
      for (const i of [0, 1, 0, 1]) {
        const client = i ? new Api(api.key, api.email, url(1)) : api;
        const { tusEndpoint, url: s3Url, asset } = (await client.post("asset/request-upload", { name: `upload ${assetIds.length}` })).body;
        assetIds.push(asset.id);
        if (assetIds.length === 4) {
          assert.equal((await putFile(s3Url, file)).status, 200); // straight to the bucket: a job on some worker notices it
          continue;
        }
        const upload = await tusCreate(tusEndpoint, size);
        const sent = await patch(on(i, upload), 0, fs.readFileSync(file));
        assert.ok("status" in sent && sent.status === 204, JSON.stringify(sent));
      }
      for (const id of assetIds) assert.equal((await settled(api, id)).status.phase, "ready");

      // Each upload's own import task; the renditions' transcode-file tasks run on in the background.
      const ofType = (type: string) =>
        rx.received.filter((r) => r.json.event === type && (!type.startsWith("task.") || r.json.payload.task.type === "import"));
      const deadline = Date.now() + 20_000;
      while ((ofType("asset.ready").length < 4 || ofType("task.completed").length < 4) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      await new Promise((r) => setTimeout(r, 3000)); // a duplicate would come now
      const ids = rx.received.map((r) => r.json.id);
      assert.equal(new Set(ids).size, ids.length, `an event delivered twice: ${JSON.stringify(rx.received.map((r) => [r.json.event, r.json.id]))}`);
      for (const type of ["asset.created", "asset.ready", "task.spawned", "task.completed"]) {
        assert.equal(ofType(type).length, 4, `${type}: ${ofType(type).length} deliveries for 4 uploads`);
      }
      assert.deepEqual(new Set(ofType("asset.ready").map((r) => r.json.payload.asset.id)), new Set(assetIds));
    } finally {
      await rx.close();
    }
  });

  test("a session signed in on one instance and an API key made there work on the other", async () => {
    const api = await newAccount(url(0));
    const bySession = await call("GET", "asset", { base: url(1), cookie: api.cookie });
    assert.equal(bySession.status, 200);
    const byKey = await call("GET", "asset", { base: url(1), auth: `Bearer ${api.key}` });
    assert.equal(byKey.status, 200);
    // and the dashboard's own session endpoint knows the user
    const session = await call("GET", `${url(1)}/api/auth/session`, { cookie: api.cookie });
    assert.equal(session.body?.user?.email, api.email);
    assert.equal((await call("GET", "asset", { base: url(1), cookie: "authjs.session-token=forged" })).status, 401);
  });
});
