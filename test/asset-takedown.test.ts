import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { BASE, newAccount, type Api } from "./support/client";
import { until } from "./support/media";
import { firstSegmentUrl, makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * Deleting a video: the spec's DELETE hides it and leaves its URLs working; a takedown
 * (?purge=true, the dashboard's delete) stops every playback path on every app instance at
 * once, removes its files, and on any delete its jobs stop.
 */
const tmp = tmpDir();
let second: AppProcess;

before(async () => {
  // Another app instance on the same database and store, as behind a load balancer.
  second = await startAppProcess({ ...process.env, PORT: "0", HOST: "127.0.0.1", MEDIA_NODE: "false", JOB_WORKERS: "0" });
});
after(async () => {
  await second?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function upload(api: Api, file: string) {
  const requested = await api.post("asset/request-upload", { name: path.basename(file) });
  assert.equal(requested.status, 200, JSON.stringify(requested.body));
  assert.equal((await putFile(requested.body.url, file)).status, 200);
  return requested.body as { asset: { id: string; playbackId: string }; task: { id: string } };
}

/** Every URL a viewer reaches the video by, on one instance. */
async function viewerUrls(base: string, playbackId: string): Promise<string[]> {
  const info = await (await fetch(`${base}/api/playback/${playbackId}`)).json();
  const hls = info.meta.source.find((s: { hrn: string }) => s.hrn === "HLS (TS)").url as string;
  return [
    `${base}/api/playback/${playbackId}`,
    `${base}/play/${playbackId}`,
    hls,
    await firstSegmentUrl(hls),
    `${base}/asset/${playbackId}/video`,
    `${base}/asset/${playbackId}/thumbnail.jpg`,
  ];
}

async function statusOf(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  await res.body?.cancel();
  return res.status;
}

/** The ffmpeg processes working on an asset (their input names its source). */
function ffmpegsOf(assetId: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const cmd = fs.readFileSync(`/proc/${p}/cmdline`, "utf8");
        return cmd.includes("ffmpeg") && cmd.includes(assetId) ? [Number(p)] : [];
      } catch {
        return [];
      }
    });
}

const storedFiles = (assetId: string) => path.join(process.env.DATA_DIR!, "objects", "assets", assetId);

describe("taking a video down", () => {
  test("?purge=true: every playback path answers 404 on both instances at once, its jobs stop and its files go", async () => {
    const api = await newAccount();
    // Long enough that its ladder is still being made when it is taken down.
    const file = await makeMedia(tmp, "mp4", { seconds: 40, size: "1920x1080" });
    const { asset } = await upload(api, file);
    assert.equal((await settled(api, asset.id, 180_000)).status.phase, "ready");
    const urls = [...(await viewerUrls(BASE, asset.playbackId)), ...(await viewerUrls(second.url, asset.playbackId))];
    for (const url of urls) assert.equal(await statusOf(url), 200, url);
    await until("its renditions to be transcoding", async () => ffmpegsOf(asset.id).length > 0, 120_000, 100);

    const res = await api.delete(`asset/${asset.id}?purge=true`);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    for (const url of urls) assert.equal(await statusOf(url), 404, `${url} after the takedown`);
    assert.equal((await api.get(`asset/${asset.id}`)).status, 404);

    await until("its transcoders to stop", async () => ffmpegsOf(asset.id).length === 0, 30_000);
    await until("its files to be removed", async () => !fs.existsSync(storedFiles(asset.id)), 30_000);
    // Taking it down again is fine and changes nothing.
    assert.equal((await api.delete(`asset/${asset.id}?purge=true`)).status, 204);
  });

  test("a plain DELETE keeps the spec's behaviour: hidden from the API, its URLs keep working; a later takedown still works", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 4 });
    const { asset } = await upload(api, file);
    assert.equal((await settled(api, asset.id)).status.phase, "ready");
    const urls = await viewerUrls(BASE, asset.playbackId);

    assert.equal((await api.delete(`asset/${asset.id}`)).status, 204);
    assert.equal((await api.get(`asset/${asset.id}`)).status, 404);
    assert.equal((await api.delete(`asset/${asset.id}`)).status, 404, "deleted already");
    for (const url of urls) assert.equal(await statusOf(url), 200, url);

    assert.equal((await api.delete(`asset/${asset.id}?purge=true`)).status, 204);
    for (const url of urls) assert.equal(await statusOf(url), 404, url);
    await until("its files to be removed", async () => !fs.existsSync(storedFiles(asset.id)), 30_000);
  });

  test("deleting a video whose file never came cancels its task", async () => {
    const api = await newAccount();
    const requested = await api.post("asset/request-upload", { name: "never sent" });
    assert.equal((await api.delete(`asset/${requested.body.asset.id}?purge=true`)).status, 204);
    const task = (await api.get(`task/${requested.body.task.id}`)).body;
    assert.equal(task.status.phase, "cancelled");
  });

  test("bad input and other accounts change nothing", async () => {
    const [owner, other] = [await newAccount(), await newAccount()];
    const file = await makeMedia(tmp, "mp4", { seconds: 2 });
    const { asset } = await upload(owner, file);
    assert.equal((await settled(owner, asset.id)).status.phase, "ready");

    const bad = await owner.delete(`asset/${asset.id}?purge=maybe`);
    assert.equal(bad.status, 422);
    assert.match(bad.body.errors[0], /purge/);
    assert.equal((await other.delete(`asset/${asset.id}?purge=true`)).status, 404);
    assert.equal((await owner.get(`asset/${asset.id}`)).status, 200);
    assert.equal(await statusOf(`${BASE}/api/playback/${asset.playbackId}`), 200);
  });
});
