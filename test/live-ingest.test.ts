import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { freePort } from "@/lib/net/free-port";
import { newAccount } from "./support/client";
import { burstyLink, ffprobe, publish, RTMP_PORT, rtmpReceiver, rtmpUrl, streamActive, streamIdle, until } from "./support/media";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "castline-live-ingest-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Command lines of every process on the machine that carry `secret`, but for the given pids. */
function commandLinesWith(secret: string, except: (number | undefined)[]): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (except.includes(Number(pid))) continue;
    let args: string;
    try {
      args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      continue; // gone meanwhile
    }
    if (args.includes(secret)) found.push(`${pid}: ${args}`);
  }
  return found;
}

/** Files under DATA_DIR that contain `secret`, but the database's own (DATA_DIR/pg), which holds streams by design. */
function filesWith(secret: string): string[] {
  const root = process.env.DATA_DIR!;
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && file !== path.join(root, "pg")) walk(file);
      else if (entry.isFile()) {
        try {
          if (fs.readFileSync(file).includes(secret)) found.push(file);
        } catch {
          // a live segment deleted meanwhile
        }
      }
    }
  };
  walk(root);
  return found;
}

describe("live ingest", { concurrency: false }, () => {
  test("the stream key is on no command line and in no file while live and after", async () => {
    const api = await newAccount();
    const port = await freePort();
    const remote = rtmpReceiver(port, path.join(tmp, "target.flv"));
    const target = (await api.post("multistream/target", { url: `rtmp://127.0.0.1:${port}/live/target`, name: "target" })).body;
    const stream = (await api.post("stream", { name: "secret key", record: true, multistream: { targets: [{ id: target.id, profile: "source" }] } })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey));
    try {
      await streamActive(api, stream.id);
      // transcoder, recorder and the push all read the broadcast now
      await until("media at the target", async () => fs.existsSync(path.join(tmp, "target.flv")) && fs.statSync(path.join(tmp, "target.flv")).size > 50_000);
      const playback = (await api.get(`playback/${stream.playbackId}`)).body;
      assert.equal((await fetch(playback.meta.source[0].url)).status, 200, "the broadcast plays");
      assert.deepEqual(commandLinesWith(stream.streamKey, [broadcaster.proc.pid, remote.proc.pid]), []);
      assert.deepEqual(filesWith(stream.streamKey), []);
    } finally {
      await broadcaster.stop();
      await remote.stop();
    }
    await streamIdle(api, stream.id);
    await sleep(1500); // what is written when a publish ends
    assert.deepEqual(filesWith(stream.streamKey), []);
  });

  for (const fps of [30, 15]) {
    test(`ingest health reads a ${fps} fps source as ${fps} fps at a steady bitrate, though it arrives in bursts`, async () => {
      const api = await newAccount();
      const stream = (await api.post("stream", { name: `${fps} fps` })).body;
      const link = await burstyLink(RTMP_PORT, 1300);
      const broadcaster = publish(rtmpUrl(stream.streamKey, link.port), { size: "320x180", fps });
      try {
        await streamActive(api, stream.id);
        const readings: number[] = [];
        const bitrates: number[] = [];
        let last = 0;
        while (readings.length < 6) {
          const { health } = (await api.get(`stream/${stream.id}`)).body;
          if (health && health.updatedAt !== last) {
            last = health.updatedAt;
            readings.push(health.fps);
            bitrates.push(health.bitrateKbps);
          }
          await sleep(700);
        }
        assert.ok(
          readings.every((r) => Math.abs(r - fps) <= 1),
          `readings ${readings.join(", ")} for ${fps} fps`,
        );
        // Bytes counted per second of wall clock read 0, then a burst's worth, then 0 again.
        assert.ok(bitrates.every((b) => b > 0) && Math.max(...bitrates) < 1.5 * Math.min(...bitrates), `bitrates ${bitrates.join(", ")} kbps`);
      } finally {
        await broadcaster.stop();
        link.close();
      }
      await streamIdle(api, stream.id);
    });
  }

  test("a recorded session lasts as long as its recording and its broadcast", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "twelve seconds", record: true })).body;
    const broadcaster = publish(rtmpUrl(stream.streamKey), { seconds: 12 });
    await streamActive(api, stream.id);
    assert.equal(await broadcaster.exited, 0);
    await streamIdle(api, stream.id);
    const [session] = await until(
      "the recording's mp4",
      async () => {
        const list = (await api.get(`stream/${stream.id}/sessions`)).body;
        return list[0]?.mp4Url ? list : undefined;
      },
      60_000,
      500,
    );
    const mp4 = path.join(tmp, "recording.mp4");
    fs.writeFileSync(mp4, Buffer.from(await (await fetch(session.mp4Url)).arrayBuffer()));
    const recorded = Number((await ffprobe(mp4)).format.duration);
    const counted = session.sourceSegmentsDuration;
    assert.ok(Math.abs(counted - recorded) <= 0.5, `session ${counted} s, recording ${recorded} s`);
    assert.ok(Math.abs(counted - 12) <= 1, `session ${counted} s for a 12 s broadcast`);
    assert.equal((await api.get(`stream/${stream.id}`)).body.sourceSegmentsDuration, counted, "the stream counts the same");
  });
});
