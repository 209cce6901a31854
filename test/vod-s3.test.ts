import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { newAccount } from "./support/client";
import { createScratchDatabase } from "./support/database";
import { decodes } from "./support/media";
import { startS3 } from "./support/s3";
import { digestOf, download, firstSegmentUrl, makeMedia, putFile, settled, tmpDir } from "./support/vod";

const tmp = tmpDir();
let s3: Awaited<ReturnType<typeof startS3>>;
let s3Url: string;
let app: AppProcess;

/** A second deployment on S3-compatible storage (s3rver), with its own database. */
before(async () => {
  s3 = await startS3(path.join(tmp, "s3"));
  s3Url = s3.url;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-s3-app-"));
  app = await startAppProcess({
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: await createScratchDatabase(),
    MEDIA_NODE: "false",
    PUBLIC_URL: undefined,
    APP_URL: undefined,
    S3_ENDPOINT: s3Url,
    S3_BUCKET: "castline",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
  });
});

after(async () => {
  await app?.stop();
  await s3?.close();
});

describe("assets on S3-compatible storage", () => {
  test("upload through a real pre-signed S3 URL, processed from S3, played and downloaded through the app", async () => {
    const api = await newAccount(app.url);
    const file = await makeMedia(tmp, "mp4", { seconds: 3 });
    const { url, asset } = (await api.post("asset/request-upload", { name: "on s3" })).body;
    assert.ok(url.startsWith(`${s3Url}/castline/assets/${asset.id}/source?`), url);
    assert.match(url, /X-Amz-Signature=/);

    assert.equal((await putFile(url, file)).status, 200);
    const ready = await settled(api, asset.id, 60_000);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    const local = digestOf(file);
    assert.deepEqual(
      ready.hash.map((h: { hash: string }) => h.hash),
      [local.md5, local.sha256],
      "hashed by reading the object back",
    );

    const got = path.join(tmp, "from-s3.mp4");
    await download(ready.downloadUrl, got);
    assert.equal(digestOf(got).sha256, local.sha256);
    const ranged = await fetch(ready.downloadUrl, { headers: { range: "bytes=10-19" } });
    assert.equal(ranged.status, 206);
    assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), fs.readFileSync(file).subarray(10, 20));

    const seg = path.join(tmp, "s3-seg.ts");
    await download(await firstSegmentUrl(ready.playbackUrl), seg);
    await decodes(seg);
    // the media really lives in the bucket
    assert.ok(fs.readdirSync(path.join(tmp, "s3", "castline")).length > 0);
  });

  test("the app's own upload URL (tus) also lands in S3", async () => {
    const api = await newAccount(app.url);
    const file = await makeMedia(tmp, "mp4", { seconds: 2 });
    const { tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "tus on s3" })).body;
    const size = fs.statSync(file).size;
    const created = await fetch(tusEndpoint, { method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": String(size) } });
    assert.equal(created.status, 201);
    const patched = await fetch(created.headers.get("location")!, {
      method: "PATCH",
      headers: { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" },
      body: fs.readFileSync(file),
    });
    assert.equal(patched.status, 204);
    const ready = await settled(api, asset.id, 60_000);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    assert.equal(ready.hash[1].hash, digestOf(file).sha256);
  });
});
