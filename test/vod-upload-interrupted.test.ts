// biome-ignore-all format: ffmpeg command lines, each option beside its value
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { newAccount, type Api } from "./support/client";
import { createScratchDatabase } from "./support/database";
import { until } from "./support/media";
import { digestOf, download, putFile, settled, tmpDir } from "./support/vod";

/**
 * Uploads cut off by a crash (a real kill -9 of the app's whole process tree),
 * by a client that disconnects, or by one that stalls: the asset must free
 * itself after its lease (UPLOAD_LEASE_S, short here), the abandoned parts must
 * go without anyone retrying, and the same upload URL must then work.
 * These tests run their own app: the suite's shared app is never killed.
 */
const LEASE_S = 5;
/** Upload URLs, and the time a paused tus upload may be resumed: the shortest allowed, so one expires while these tests run. */
const URL_TTL_S = 60;
const tmp = tmpDir();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exec = promisify(execFile);

let app: AppProcess;
let env: NodeJS.ProcessEnv;
let dataDir: string;

/** The launcher and everything it started (job worker), each with SIGKILL, as a crash or the OOM killer would. */
function killTree(pid: number) {
  const children = (parent: number): number[] =>
    fs
      .readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'
          const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
        } catch {
          return false;
        }
      })
      .flatMap((d) => [Number(d), ...children(Number(d))]);
  const tree = [pid, ...children(pid)];
  for (const p of tree) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  return tree;
}

/** Kills the app mid-work; `whileDown` checks what the crash left before the app starts again. */
async function crashAndRestart(whileDown: () => void = () => {}) {
  const exited = new Promise((r) => app.child.once("exit", r));
  const tree = killTree(app.child.pid!);
  await exited;
  await until("the killed processes to be gone", async () => tree.every((p) => !fs.existsSync(`/proc/${p}`)), 10_000, 50);
  whileDown();
  app = await startAppProcess(env);
}

/** Files of unfinished writes of the asset's objects (DATA_DIR/objects/assets/<id>), or of all objects. */
function parts(assetId?: string): string[] {
  const dir = path.join(dataDir, "objects", ...(assetId ? ["assets", assetId] : []));
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".part"));
}

/** Bytes a tus upload has on disk (not asked over HTTP: a HEAD would end a PATCH in flight, as tus does). */
const tusReceived = (location: string) => fs.statSync(path.join(dataDir, "tus", new URL(location).pathname.split("/").pop()!), { throwIfNoEntry: false })?.size ?? 0;

const tusFiles = (assetId: string) => (fs.existsSync(path.join(dataDir, "tus")) ? fs.readdirSync(path.join(dataDir, "tus")).filter((f) => f.startsWith(`${assetId}.`)) : []);

/**
 * A request whose body is sent a chunk at a time, as a slow client does, until
 * `stall()` (the client stops sending but keeps the connection) or `cut()` (it
 * disconnects). `sent` counts the bytes written.
 */
function slowRequest(url: string, method: string, body: Buffer, headers: Record<string, string> = {}, chunk = 64 * 1024, everyMs = 100) {
  const req = http.request(url, { method, headers: { "content-length": String(body.length), ...headers } });
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
  response.catch(() => {}); // a cut or killed request is expected to fail
  const tick = () => {
    const next = body.subarray(sent, sent + chunk);
    sent += next.length;
    if (sent >= body.length) return void req.end(next);
    req.write(next);
    timer = setTimeout(tick, everyMs);
  };
  tick();
  return {
    response,
    get sent() {
      return sent;
    },
    stall: () => clearTimeout(timer),
    cut: () => {
      clearTimeout(timer);
      req.destroy();
    },
  };
}

const tusHeaders = { "tus-resumable": "1.0.0" };

async function tusCreate(endpoint: string, size: number) {
  const res = await fetch(endpoint, { method: "POST", headers: { ...tusHeaders, "upload-length": String(size) } });
  return { status: res.status, location: res.headers.get("location")!, expires: res.headers.get("upload-expires"), body: await res.text() };
}

async function tusOffset(location: string) {
  const res = await fetch(location, { method: "HEAD", headers: tusHeaders });
  return { status: res.status, offset: Number(res.headers.get("upload-offset")) };
}

function tusPatch(location: string, bytes: Buffer, offset: number, everyMs = 100) {
  return slowRequest(location, "PATCH", bytes.subarray(offset), {
    ...tusHeaders,
    "upload-offset": String(offset),
    "content-type": "application/offset+octet-stream",
  }, 64 * 1024, everyMs);
}

/**
 * About 11 MB in 3 s of 320x180: at 640 KiB/s a slow client is still sending 15 s on, when it is
 * cut. Lossless noise makes the bytes; the small picture keeps what the app makes of it cheap
 * (one 180p rendition, no 720p ladder), as only the upload is under test here.
 */
async function noisyMedia() {
  const file = path.join(tmp, "noise.mp4");
  // prettier-ignore
  await exec("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=3", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3",
    "-vf", "noise=alls=100:allf=t", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p", "-g", "60",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ]);
  return file;
}

const phaseOf = async (api: Api, id: string) => (await api.get(`asset/${id}`)).body.status.phase as string;

/** The asset ready, with the uploaded file's md5 and sha256, and its download byte-identical to it. */
async function assertReadyWith(api: Api, assetId: string, file: string) {
  const ready = await settled(api, assetId, 90_000);
  assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
  const local = digestOf(file);
  assert.deepEqual(ready.hash, [{ hash: local.md5, algorithm: "md5" }, { hash: local.sha256, algorithm: "sha256" }]);
  const got = path.join(tmp, `got-${assetId}.mp4`);
  await download(ready.downloadUrl, got);
  assert.equal(digestOf(got).md5, local.md5, "the download is the uploaded file");
}

describe("interrupted uploads", () => {
  let api: Api;
  let file: string;
  let bytes: Buffer;
  /** Paused for good: it must outlive its lease (the first test looks), and the last test sees it expire. */
  let pausedForGood: { assetId: string; location: string; expiresAt: number };
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-interrupted-"));
    env = {
      ...process.env,
      DATABASE_URL: await createScratchDatabase(),
      DATA_DIR: dataDir,
      // the same port after every restart: the upload URLs handed out name it
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      MEDIA_NODE: "false",
      UPLOAD_LEASE_S: String(LEASE_S),
      UPLOAD_URL_TTL_S: String(URL_TTL_S),
    };
    const media = noisyMedia(); // made while the app starts
    media.catch(() => {}); // awaited once the app is up, and so killed by after() whatever happens
    app = await startAppProcess(env);
    file = await media;
    bytes = fs.readFileSync(file);
    assert.ok(bytes.length > 8 * 1024 * 1024, `${bytes.length} bytes: a slow client must still be sending when it is cut`);
    api = await newAccount(app.url);
    // Made first: its expiry (URL_TTL_S, at least 60 s) is what the whole file waits for, so the
    // other tests run while it comes. The first test looks at it long before then.
    const { tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "paused for good" })).body;
    const created = await tusCreate(tusEndpoint, bytes.length);
    const sent = await tusPatch(created.location, bytes.subarray(0, 1024 * 1024), 0, 0).response;
    assert.equal(sent.status, 204, sent.body);
    const expiresAt = Date.parse(created.expires ?? "") || Date.now() + URL_TTL_S * 1000;
    pausedForGood = { assetId: asset.id, location: created.location, expiresAt };
  });
  after(async () => {
    killTree(app.child.pid!);
    if (process.env.KEEP_TEST_DATA) return;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("an abandoned tus upload frees the asset after the lease: a PUT to the same URL takes over and its parts are removed", async () => {
    const { url, tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "tus abandoned" })).body;
    const created = await tusCreate(tusEndpoint, bytes.length);
    assert.equal(created.status, 201, created.body);
    const patch = tusPatch(created.location, bytes, 0);
    await until("bytes to arrive", async () => tusReceived(created.location) > 0);
    patch.cut();
    assert.ok(tusFiles(asset.id).length > 0);

    // Left alone, the asset waits again and the tus upload stays resumable.
    await until("the asset to be free", async () => (await phaseOf(api, asset.id)) === "waiting", (LEASE_S + 10) * 1000);
    assert.equal((await tusOffset(created.location)).status, 200);
    // The sweep that freed this asset came after the paused upload's lease (older) lapsed too.
    assert.ok(Date.now() < pausedForGood.expiresAt, "looked before the paused upload's expiry");
    assert.ok(tusFiles(pausedForGood.assetId).length > 0, "paused uploads outlive their lease until they expire");

    // Another upload takes over: the tus upload ends and its parts go.
    const put = await putFile(url, file);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await assertReadyWith(api, asset.id, file);
    assert.deepEqual(tusFiles(asset.id), []);
    assert.equal((await tusOffset(created.location)).status, 404);
  });

  test("a client that disconnects mid-PUT frees the asset; the same URL then works", async () => {
    const { url, asset } = (await api.post("asset/request-upload", { name: "disconnected" })).body;
    const put = slowRequest(url, "PUT", bytes, { "content-type": "video/mp4" });
    await until("the first bytes on disk", async () => parts(asset.id).length > 0);
    put.cut();
    await until("the asset to be free and its parts removed", async () => (await phaseOf(api, asset.id)) === "waiting" && parts(asset.id).length === 0, (LEASE_S + 10) * 1000);
    assert.equal((await putFile(url, file)).status, 200);
    await assertReadyWith(api, asset.id, file);
  });

  test("a client that stalls mid-PUT loses the asset after the lease; a new PUT to the same URL takes over", async () => {
    const { url, asset } = (await api.post("asset/request-upload", { name: "stalled" })).body;
    const put = slowRequest(url, "PUT", bytes, { "content-type": "video/mp4" });
    await until("the first bytes on disk", async () => parts(asset.id).length > 0);
    put.stall();
    await sleep((LEASE_S + 1) * 1000);
    const retry = await putFile(url, file);
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    await assertReadyWith(api, asset.id, file);
    // The stalled request was ended by the app, and left nothing behind.
    const stalled = await put.response;
    assert.equal(stalled.status, 408, stalled.body);
    assert.match(JSON.parse(stalled.body).errors[0], /no data for 5 s/);
    assert.deepEqual(parts(asset.id), []);
  });

  /**
   * One kill -9 serves two uploads streaming at once, a PUT and a tus PATCH (an app start is the
   * costliest thing in this file). The first test crashes the app with both under way; the next
   * two each check what became of one of them.
   */
  describe("an app killed with kill -9 mid-work", () => {
    let killedPut: { url: string; assetId: string };
    let killedTus: { location: string; assetId: string };

    test("while a PUT and a tus PATCH stream for longer than the lease, other uploads to their assets are refused", async () => {
      const put = (await api.post("asset/request-upload", { name: "killed mid-PUT" })).body;
      const tus = (await api.post("asset/request-upload", { name: "tus killed" })).body;
      const created = await tusCreate(tus.tusEndpoint, bytes.length);
      assert.equal(created.status, 201, created.body);
      // Resumable for as long as an upload URL lives, and the client is told until when.
      const expires = Date.parse(created.expires!) - Date.now();
      assert.ok(Math.abs(expires - URL_TTL_S * 1000) < 5000, `Upload-Expires ${created.expires}`);
      killedPut = { url: put.url, assetId: put.asset.id };
      killedTus = { location: created.location, assetId: tus.asset.id };

      const putting = slowRequest(put.url, "PUT", bytes, { "content-type": "video/mp4" });
      const patching = tusPatch(created.location, bytes, 0);
      await until("the first bytes on disk", async () => parts(put.asset.id).length > 0 && tusReceived(created.location) > 0);

      // Streaming for longer than the lease: a live upload keeps its asset.
      await sleep((LEASE_S + 2) * 1000);
      assert.ok(putting.sent < bytes.length && tusReceived(created.location) < bytes.length, "both still sending");
      const second = await putFile(put.url, file);
      assert.equal(second.status, 409, JSON.stringify(second.body));
      assert.match(second.body.errors[0], /in progress/);
      assert.equal((await tusCreate(put.tusEndpoint, bytes.length)).status, 409);
      assert.equal((await putFile(tus.url, file)).status, 409, "a PATCH that is streaming holds the asset");
      assert.equal((await tusCreate(tus.tusEndpoint, bytes.length)).status, 409);

      await crashAndRestart(() => assert.ok(parts(put.asset.id).length > 0, "the killed PUT left its part"));
      await Promise.all([putting.response.catch(() => undefined), patching.response.catch(() => undefined)]);
    });

    // Side by side, as each would be on its own right after the restart: the upload URLs and the
    // tus upload expire URL_TTL_S after they were made, and one check's waits must not spend another's time.
    describe("after the restart", { concurrency: true }, () => {
      test("a PUT cut by kill -9 frees its asset, its parts are removed, and the same URL then works", async () => {
        // Nobody retries: the lease lapses, the asset waits again and the parts go.
        await until("the asset to be free and its parts removed", async () => (await phaseOf(api, killedPut.assetId)) === "waiting" && parts(killedPut.assetId).length === 0, 30_000);
        const retry = await putFile(killedPut.url, file);
        assert.equal(retry.status, 200, JSON.stringify(retry.body));
        await assertReadyWith(api, killedPut.assetId, file);
        assert.deepEqual(parts(killedPut.assetId), []);
      });

      test("a tus upload cut by kill -9 can be resumed after the restart", async () => {
        // Paused, not abandoned: the upload keeps its bytes and an expiry, and picks up where it stopped.
        const head = await tusOffset(killedTus.location);
        assert.equal(head.status, 200);
        assert.ok(head.offset > 0 && head.offset < bytes.length, `offset ${head.offset}`);
        const rest = await tusPatch(killedTus.location, bytes, head.offset, 0).response;
        assert.equal(rest.status, 204, rest.body);
        await assertReadyWith(api, killedTus.assetId, file);
        await until("the tus upload's files to be removed", async () => tusFiles(killedTus.assetId).length === 0);
      });
    });
  });

  // Its own kill -9: the moment to crash is when the job worker gets to it, which at load 20 came
  // so late that the streaming uploads' URLs (URL_TTL_S) expired before the restart.
  test("an app killed while it processes an upload finishes it after the restart", async () => {
    const { url, asset } = (await api.post("asset/request-upload", { name: "killed while processing" })).body;
    assert.equal((await putFile(url, file)).status, 200);
    // Mid-way through making it playable: its scratch folder exists, in its process's scratch (work/p<pid>).
    const work = path.join(dataDir, "work");
    const processes = () => (fs.existsSync(work) ? fs.readdirSync(work) : []);
    const killed = await until("processing to be under way", async () =>
      processes().find((p) => fs.readdirSync(path.join(work, p)).some((d) => d.startsWith(asset.id))), 30_000, 10);
    await crashAndRestart();
    await assertReadyWith(api, asset.id, file);
    assert.deepEqual(parts(asset.id), []);
    assert.ok(!processes().includes(killed), "the killed process's scratch folder is gone");
  });

  test("a tus upload whose asset was deleted is removed without anyone asking", async () => {
    const { tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "deleted mid-upload" })).body;
    const created = await tusCreate(tusEndpoint, bytes.length);
    assert.equal((await tusPatch(created.location, bytes.subarray(0, 512 * 1024), 0, 0).response).status, 204);
    assert.equal((await api.delete(`asset/${asset.id}`)).status, 204);
    await until("the tus upload's files to be removed", async () => tusFiles(asset.id).length === 0, (LEASE_S + 10) * 1000);
    assert.equal((await tusOffset(created.location)).status, 404);
  });

  test("a tus upload paused past its expiry is removed without anyone asking", async () => {
    const { assetId, location, expiresAt } = pausedForGood;
    await until("the expired tus upload's files to be removed", async () => tusFiles(assetId).length === 0, Math.max(0, expiresAt - Date.now()) + (LEASE_S + 10) * 1000);
    assert.ok(Date.now() >= expiresAt, "not before it expired");
    assert.equal((await tusOffset(location)).status, 404);
    assert.equal(await phaseOf(api, assetId), "waiting");
  });
});
