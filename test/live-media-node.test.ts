import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { freePort } from "@/lib/net/free-port";
import { BASE, newAccount } from "./support/client";
import { publish, rtmpUrl, streamActive, streamIdle, until } from "./support/media";

test("`npm run media` as the README shows it adds a media node that takes broadcasts", async () => {
  const port = await freePort();
  // README: APP_URL=http://<app-host>:3000 MEDIA_SECRET=<the app's> MEDIA_PUBLIC_HOST=<this host> npm run media
  // Its own DATA_DIR (scratch) and no S3_*: its media reaches the app's store through the app.
  const env = {
    ...process.env,
    APP_URL: BASE,
    MEDIA_SECRET: fs.readFileSync(path.join(process.env.DATA_DIR!, "media-secret"), "utf8").trim(),
    MEDIA_PUBLIC_HOST: "127.0.0.1",
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "castline-node-")),
    RTMP_PORT: String(port),
  };
  // its own process group, stopped as Ctrl-C in a terminal stops it
  const node = spawn("npm", ["run", "media"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  node.stdout!.on("data", (c) => (output += c));
  node.stderr!.on("data", (c) => (output += c));
  let gone = false;
  const exited = new Promise<string>((resolve) => node.once("exit", (code, signal) => ((gone = true), resolve(signal ?? String(code)))));
  const api = await newAccount();
  const stream = (await api.post("stream", { name: "second node" })).body;
  let broadcaster: ReturnType<typeof publish> | undefined;
  try {
    await until("the media node listening", async () => output.includes(`RTMP on 127.0.0.1:${port}`) || gone, 30_000);
    assert.match(output, /RTMP on/, output);
    broadcaster = publish(rtmpUrl(stream.streamKey, port));
    await streamActive(api, stream.id);
    // Listed for encoders once it reports itself healthy: while its new broadcast's ladder starts on
    // a busy machine it may say it is overloaded, and encoders are then sent to a healthy node.
    let ingests: string[] = [];
    await until(
      "the node listed for encoders",
      async () => {
        ingests = (await api.get("ingest")).body.map((i: { ingest: string }) => i.ingest);
        return ingests.includes(`rtmp://127.0.0.1:${port}/live`);
      },
      60_000,
      500,
    ).catch(() => assert.fail(`the node is listed for encoders: ${ingests}`));
    const playback = (await api.get(`playback/${stream.playbackId}`)).body;
    assert.equal((await fetch(playback.meta.source[0].url)).status, 200, "the broadcast plays");

    process.kill(-node.pid!, "SIGINT");
    // npm passes Ctrl-C on and then ends by it; the node ends its broadcasts first (the stream goes idle)
    assert.ok(["0", "SIGINT"].includes(await exited), output);
    await streamIdle(api, stream.id);
    const after = (await api.get("ingest")).body.map((i: { ingest: string }) => i.ingest);
    assert.ok(!after.includes(`rtmp://127.0.0.1:${port}/live`), "a node that stopped leaves the list at once");
    // Every process of the node's group ends (on a loaded machine the last of its ffmpeg children may
    // still be on its way out as npm returns).
    const groupGone = () => {
      try {
        process.kill(-node.pid!, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === "ESRCH";
      }
    };
    await until("no process of the node left", async () => groupGone(), 15_000, 200);
  } finally {
    await broadcaster?.stop();
    try {
      process.kill(-node.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
