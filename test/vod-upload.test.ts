// biome-ignore-all format: ffmpeg command lines, each option beside its value
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { promisify } from "node:util";
import { signUploadToken } from "@/lib/assets/upload/token";
import { BASE, newAccount } from "./support/client";
import { decodes, ffprobe } from "./support/media";
import { startReceiver } from "./support/receiver";
import { digestOf, download, firstSegmentUrl, makeMedia, putFile, settled, tmpDir } from "./support/vod";

const exec = promisify(execFile);
const tmp = tmpDir();
// The app under test signs with the secret it generated into its data folder.
process.env.AUTH_SECRET ??= fs.readFileSync(path.join(process.env.DATA_DIR!, "auth-secret"), "utf8").trim();

describe("direct uploads", () => {
  test("a valid mp4 PUT to the pre-signed URL becomes a ready, playable, downloadable asset", async () => {
    const api = await newAccount();
    const rx = await startReceiver();
    await api.post("webhook", { name: "rx", url: rx.url, events: ["asset.created", "asset.ready", "task.spawned", "task.updated", "task.completed"] });
    const file = await makeMedia(tmp, "mp4", { seconds: 6 });
    const local = digestOf(file);

    const requested = await api.post("asset/request-upload", { name: "My clip" });
    assert.equal(requested.status, 200);
    const { url, tusEndpoint, asset, task } = requested.body;
    assert.equal(asset.status.phase, "waiting");
    assert.equal(asset.name, "My clip");
    assert.equal(task.type, "import");
    assert.equal(task.status.phase, "pending");
    assert.equal(task.outputAssetId, asset.id);
    assert.ok(task.params.import.uploadedObjectKey);
    assert.match(tusEndpoint, /^http.*\/api\/asset\/upload\/tus\?token=/);

    const put = await putFile(url, file);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const ready = await settled(api, asset.id);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    assert.equal(ready.size, local.size);
    assert.deepEqual(ready.hash, [{ hash: local.md5, algorithm: "md5" }, { hash: local.sha256, algorithm: "sha256" }]);

    const probe = await ffprobe(file);
    const v = probe.streams.find((s) => s.codec_type === "video")!;
    assert.equal(ready.videoSpec.format, "mp4");
    assert.ok(Math.abs(ready.videoSpec.duration - Number(probe.format.duration)) < 0.01);
    const vt = ready.videoSpec.tracks.find((t: { type: string }) => t.type === "video");
    const at = ready.videoSpec.tracks.find((t: { type: string }) => t.type === "audio");
    assert.deepEqual([vt.codec, vt.width, vt.height, vt.fps, vt.pixelFormat], ["h264", v.width, v.height, 30, "yuv420p"]);
    assert.ok(vt.bitrate > 0 && vt.duration > 5);
    assert.deepEqual([at.codec, at.channels, at.sampleRate], ["aac", 1, 48000]);

    const done = (await api.get(`task/${task.id}`)).body;
    assert.equal(done.status.phase, "completed");
    assert.equal(done.status.progress, 1);
    assert.equal(done.output.import.assetSpec.size, local.size);
    assert.ok(done.output.import.videoFilePath && done.output.import.metadataFilePath);

    // Download: the very bytes uploaded, with range requests.
    assert.equal(ready.downloadUrl, `${BASE}/asset/${ready.playbackId}/video`);
    const got = path.join(tmp, "downloaded.mp4");
    await download(ready.downloadUrl, got);
    assert.equal(digestOf(got).sha256, local.sha256);
    const part = await fetch(ready.downloadUrl, { headers: { range: "bytes=100-199" } });
    assert.equal(part.status, 206);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), fs.readFileSync(file).subarray(100, 200));

    // HLS: a master playlist whose first variant's segments decode.
    const master = await (await fetch(ready.playbackUrl)).text();
    assert.match(master, /#EXT-X-STREAM-INF/);
    const seg = path.join(tmp, "seg.ts");
    await download(await firstSegmentUrl(ready.playbackUrl), seg);
    await decodes(seg);
    assert.equal((await ffprobe(seg)).streams.find((s) => s.codec_type === "video")!.codec_name, "h264");

    const info = (await (await fetch(`${BASE}/api/playback/${ready.playbackId}`)).json());
    assert.equal(info.type, "vod");
    const urls = info.meta.source.map((s: { url: string }) => s.url);
    assert.equal(urls[0], ready.playbackUrl);
    assert.ok(urls.includes(ready.downloadUrl), urls.join(" "));
    const thumb = await fetch(`${BASE}/asset/${ready.playbackId}/thumbnail.jpg`);
    assert.equal(thumb.headers.get("content-type"), "image/jpeg");
    assert.ok((await thumb.arrayBuffer()).byteLength > 1000);

    await rx.waitFor(5, 20_000);
    const events = rx.received.map((r) => r.json.event);
    for (const e of ["asset.created", "task.spawned", "task.updated", "asset.ready", "task.completed"]) assert.ok(events.includes(e), `${e} in ${events}`);

    // Deleted: gone from the API, its URLs keep working (the spec says so).
    assert.equal((await api.delete(`asset/${asset.id}`)).status, 204);
    assert.equal((await api.get(`asset/${asset.id}`)).status, 404);
    assert.equal((await fetch(ready.downloadUrl, { method: "HEAD" })).status, 200);
    assert.equal((await fetch(ready.playbackUrl)).status, 200);
    await rx.close();
  });

  test("an uploaded playlist or file list opens nothing it names: a file that exists and one that does not fail alike", async () => {
    const api = await newAccount();
    // A media file on this machine, where the worker runs, and a path where there is none.
    const present = path.join(tmp, "present.ts");
    await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", await makeMedia(tmp, "mp4", { seconds: 2 }), "-c", "copy", "-f", "mpegts", present]);
    const missing = path.join(tmp, "missing.ts");
    let requests = 0;
    const web = http.createServer((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "video/mp2t" }).end(fs.readFileSync(present));
    });
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
    const online = `http://127.0.0.1:${(web.address() as AddressInfo).port}/seg.ts`;
    const hls = (entry: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${entry}\n#EXT-X-ENDLIST\n`;
    const concat = (entry: string) => `ffconcat version 1.0\nfile '${entry}'\n`;
    const uploads = {
      "hls naming a file that exists": hls(present),
      "hls naming a file that does not": hls(missing),
      "hls naming a file URL": hls(`file://${present}`),
      "hls naming a URL": hls(online),
      "concat list naming a file that exists": concat(present),
      "concat list naming a file that does not": concat(missing),
    };
    try {
      const messages = await Promise.all(
        Object.entries(uploads).map(async ([name, text]) => {
          const file = path.join(tmp, `${name.replaceAll(" ", "-")}.m3u8`);
          fs.writeFileSync(file, text);
          const { url, asset } = (await api.post("asset/request-upload", { name })).body;
          assert.equal((await putFile(url, file)).status, 200);
          const failed = await settled(api, asset.id);
          assert.equal(failed.status.phase, "failed", name);
          return failed.status.errorMessage as string;
        }),
      );
      for (const message of messages) assert.equal(message, messages[0], "one message, whatever the list names and whether it exists");
      assert.match(messages[0], /^Unsupported file: it is not a single media file in a format Castline reads/);
      assert.equal(requests, 0, "the URL in the playlist was not fetched");
    } finally {
      web.close();
    }
  });

  test("upload URLs: tampered, expired or reused ones are refused, oversize bodies get 413", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 1 });
    const a = (await api.post("asset/request-upload", { name: "a" })).body;
    const b = (await api.post("asset/request-upload", { name: "b" })).body;
    const tokenOf = (u: string) => new URL(u).searchParams.get("token")!;
    const withToken = (u: string, token: string) => {
      const url = new URL(u);
      url.searchParams.set("token", token);
      return url.toString();
    };

    // a's signature on b's id: bound to one asset
    const [, expires, mac] = tokenOf(a.url).split(".");
    const forged = withToken(a.url, `${b.asset.id}.${expires}.${mac}`);
    const refused = await putFile(forged, file);
    assert.equal(refused.status, 403);
    assert.match(refused.body.errors[0], /signature/);
    // a later expiry with the old signature
    assert.equal((await putFile(withToken(a.url, `${a.asset.id}.${Number(expires) + 3600}.${mac}`), file)).status, 403);
    // correctly signed, but expired
    const expired = await putFile(withToken(a.url, signUploadToken(a.asset.id, -60)), file);
    assert.equal(expired.status, 403);
    assert.match(expired.body.errors[0], /expired/);
    assert.equal((await putFile(withToken(a.url, "garbage"), file)).status, 403);
    assert.equal((await api.get(`asset/${b.asset.id}`)).body.status.phase, "waiting", "refused uploads change nothing");

    // over MAX_UPLOAD_BYTES: refused from the header, before any byte is stored
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(a.url, { method: "PUT", headers: { "content-length": String(64 * 1024 ** 4) } }, (res) => resolve(res.statusCode!));
      req.on("error", reject);
      req.write(Buffer.alloc(1024));
      setTimeout(() => req.destroy(), 5000);
    });
    assert.equal(status, 413);

    assert.equal((await putFile(a.url, file)).status, 200);
    const again = await putFile(a.url, file);
    assert.equal(again.status, 409, "one asset, one file");
    assert.equal((await settled(api, a.asset.id)).status.phase, "ready");
  });
});
