import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { newAccount, type Api } from "./support/client";
import { decodes, publish, rtmpUrl, streamActive, streamIdle, until } from "./support/media";
import { startReceiver, type Received } from "./support/receiver";
import { download, firstSegmentUrl, tmpDir } from "./support/vod";

const tmp = tmpDir();
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What a receiver finds the moment recording.ready arrives: the asset as the API shows it, and whether it plays. */
async function lookWhenTold(api: Api, delivery: Received) {
  const assetId = delivery.json.payload.asset.id as string;
  const asset = (await api.get(`asset/${assetId}`)).body;
  let plays = "not tried";
  if (asset.playbackUrl) {
    try {
      const segment = path.join(tmp, "told.ts");
      await download(await firstSegmentUrl(asset.playbackUrl), segment);
      await decodes(segment);
      plays = "yes";
    } catch (err) {
      plays = String(err);
    }
  }
  return { phase: asset.status.phase as string, plays };
}

test("recording.ready fires once the recording's asset is ready and plays, after asset.ready", async () => {
  const api = await newAccount();
  let told: Promise<{ phase: string; plays: string }> | undefined;
  const rx = await startReceiver({
    // Looked at as a receiver would, at once: not after the test has waited for anything.
    onRequest: (r) => void (r.json.event === "recording.ready" && (told ??= lookWhenTold(api, r))),
  });
  try {
    await api.post("webhook", { name: "rx", url: rx.url, events: ["recording.ready", "asset.ready"] });
    const stream = (await api.post("stream", { name: "announced", record: true })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await streamActive(api, stream.id);
      const [session] = (await api.get(`stream/${stream.id}/sessions`)).body;
      await until("6 s of media", async () => (await api.get(`session/${session.id}`)).body.sourceSegmentsDuration >= 6, 30_000);
    } finally {
      await broadcaster.stop();
    }
    await streamIdle(api, stream.id);

    await until("recording.ready", async () => told, 90_000, 200);
    const seen = await told!;
    assert.equal(seen.phase, "ready", "the asset was ready when recording.ready arrived");
    assert.equal(seen.plays, "yes", "its playback worked when recording.ready arrived");

    const recordingReady = rx.received.find((r) => r.json.event === "recording.ready")!;
    const { asset, session } = recordingReady.json.payload;
    assert.equal(asset.status.phase, "ready", "the event names the asset as ready");
    assert.equal(session.recordingStatus, "ready");
    assert.equal(session.recordingPlaybackId, asset.playbackId);
    const assetReady = await until(
      "asset.ready of the recording",
      async () => rx.received.find((r) => r.json.event === "asset.ready" && r.json.payload.asset.id === asset.id),
      30_000,
    );
    assert.ok(
      recordingReady.json.createdAt >= assetReady.json.createdAt,
      `recording.ready (${recordingReady.json.createdAt}) is not before asset.ready (${assetReady.json.createdAt})`,
    );
    const mp4 = await fetch(session.mp4Url, { headers: { range: "bytes=0-99" } });
    assert.equal(mp4.status, 206, "the session's mp4 is there when announced");
    assert.equal(rx.received.filter((r) => r.json.event === "recording.ready").length, 1, "announced once");
  } finally {
    await rx.close();
  }
});
