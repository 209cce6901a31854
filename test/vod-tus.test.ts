import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import * as tus from "tus-js-client";
import { newAccount } from "./support/client";
import { digestOf, makeMedia, settled, tmpDir } from "./support/vod";

const tmp = tmpDir();
// Node's tus-js-client keeps upload URLs in a file for resuming; its typings omit the class.
const { FileUrlStorage } = tus as unknown as { FileUrlStorage: new (file: string) => tus.UrlStorage };

function upload(endpoint: string, file: string, urlStorage: tus.UrlStorage, onProgress: (sent: number, total: number) => void) {
  return new tus.Upload(fs.createReadStream(file), {
    endpoint,
    uploadSize: fs.statSync(file).size,
    chunkSize: 1024 * 1024,
    metadata: { filename: path.basename(file), filetype: "video/mp4" },
    urlStorage,
    fingerprint: async () => `castline-test-${file}`,
    retryDelays: [],
    onProgress,
  });
}

describe("resumable uploads (tus)", () => {
  test("an upload interrupted halfway resumes where it stopped and ends as a ready asset", async () => {
    const api = await newAccount();
    // Big enough to be interrupted midway: 20 s of 720p at a high bitrate.
    const file = await makeMedia(tmp, "mp4", { seconds: 20, size: "1280x720" });
    const size = fs.statSync(file).size;
    const { tusEndpoint, asset } = (await api.post("asset/request-upload", { name: "resumable" })).body;
    const storage = new FileUrlStorage(path.join(tmp, "tus-urls.json"));

    let stoppedAt = 0;
    await new Promise<void>((resolve, reject) => {
      const first: tus.Upload = upload(tusEndpoint, file, storage, (sent) => {
        if (sent < size / 2 || stoppedAt) return;
        stoppedAt = sent;
        void first.abort(false).then(resolve, reject);
      });
      first.options.onError = reject;
      first.start();
    });
    assert.ok(stoppedAt > 0 && stoppedAt < size, `stopped at ${stoppedAt} of ${size}`);
    assert.equal((await api.get(`asset/${asset.id}`)).body.status.phase, "uploading");

    // A new client (as after a page reload) finds the upload and sends only the rest.
    let resumedFrom = -1;
    await new Promise<void>((resolve, reject) => {
      const second = upload(tusEndpoint, file, storage, (sent) => {
        if (resumedFrom < 0) resumedFrom = sent;
      });
      second.options.onSuccess = () => resolve();
      second.options.onError = reject;
      void second.findPreviousUploads().then((previous) => {
        assert.equal(previous.length, 1);
        second.resumeFromPreviousUpload(previous[0]);
        second.start();
      });
    });
    assert.ok(resumedFrom >= size / 4, `resumed from ${resumedFrom}, not from 0`);

    const ready = await settled(api, asset.id);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    assert.equal(ready.hash[1].hash, digestOf(file).sha256);
  });

  test("tus creation needs a valid token", async () => {
    const { tusEndpoint } = (await (await newAccount()).post("asset/request-upload", { name: "x" })).body;
    const bad = new URL(tusEndpoint);
    bad.searchParams.set("token", "nope");
    const res = await fetch(bad, { method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": "10" } });
    assert.equal(res.status, 403);
  });
});
