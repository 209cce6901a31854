import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import postgres from "postgres";
import { newAccount } from "./support/client";
import { startCluster, startWorkerProcess, type Cluster, type ProgramProcess } from "./support/cluster";
import { until } from "./support/media";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * Renditions as durable, parallel work: an app instance (JOB_WORKERS=0: it drives
 * jobs in-process) and two `npm run worker` processes, each transcoding one chunk at a
 * time, on one database and one bucket. The workers take chunks of the same asset; one
 * is killed (kill -9) mid-ladder and the others finish, redoing none of the chunks done before.
 */
const tmp = tmpDir();
let cluster: Cluster;
let sql: postgres.Sql;
const workers: ProgramProcess[] = [];

before(async () => {
  cluster = await startCluster({ apps: 1, nodes: 0, env: { JOB_WORKERS: "0", TRANSCODE_CHUNK_S: "4", TRANSCODE_CONCURRENCY: "1" } });
  sql = postgres(cluster.env.DATABASE_URL!, { max: 1, onnotice: () => undefined });
  for (const name of ["a", "b"]) workers.push(await startWorkerProcess(cluster.env, path.join(cluster.appDataDirs[0], "..", `worker-${name}`)));
});

after(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await sql?.end();
  await cluster?.stop();
});

interface Chunk {
  rendition: string;
  index: number;
  worker: string | null;
  done_at: string | null;
}

describe("transcoding across workers", () => {
  test("two workers share one asset's chunks; a worker killed mid-way costs only what it was doing", async () => {
    const api = await newAccount(cluster.apps[0].url);
    // 480 lines: a ladder of two renditions (480p, 360p), each chunk's job encoding both, as a
    // 720p source's three would, at less than half the pixels to encode.
    const file = await makeMedia(tmp, "mp4", { seconds: 24, size: "854x480" });
    const requested = await api.post("asset/request-upload", { name: "long" });
    assert.equal((await putFile(requested.body.url, file)).status, 200);
    const asset = await settled(api, requested.body.asset.id, 120_000);
    assert.equal(asset.status.phase, "ready", asset.status.errorMessage);

    const chunks = () => sql<Chunk[]>`SELECT rendition, index, worker, done_at FROM transcode_chunks WHERE asset_id = ${asset.id}`;
    // 480p, 360p x six 4 s chunks.
    assert.equal((await until("the ladder planned", async () => ((await chunks()).length ? chunks() : undefined))).length, 12);

    const pidOf = (w: ProgramProcess) => `/${w.child.pid}`;
    await until(
      "both workers done some chunks",
      async () => {
        const rows = await chunks();
        const done = rows.filter((c) => c.done_at);
        const by = (w: ProgramProcess) => done.filter((c) => c.worker?.endsWith(pidOf(w))).length;
        return by(workers[0]) >= 2 && by(workers[1]) >= 1 && done.length < rows.length - 4;
      },
      120_000,
      100,
    );
    await workers[0].crash();
    const beforeKill = (await chunks()).filter((c) => c.done_at);

    const done = await until(
      "every rendition settled",
      async () => {
        const res = await api.get(`asset/${asset.id}`);
        const r = res.body.renditions ?? [];
        return r.length && r.every((x: { phase: string }) => x.phase !== "transcoding") ? res.body : undefined;
      },
      240_000,
      500,
    );
    assert.deepEqual(
      done.renditions.map((r: { name: string; phase: string }) => [r.name, r.phase]),
      [
        ["480p", "ready"],
        ["360p", "ready"],
      ],
    );

    const after = await chunks();
    for (const c of beforeKill) {
      const now = after.find((a) => a.rendition === c.rendition && a.index === c.index)!;
      assert.deepEqual([now.worker, now.done_at], [c.worker, c.done_at], `chunk ${c.rendition}/${c.index} was not redone`);
    }
    const finishedAfter = after.filter((c) => !beforeKill.some((b) => b.rendition === c.rendition && b.index === c.index));
    assert.ok(finishedAfter.length >= 4, "the others did the rest");

    // Each rendition plays as one timeline: six chunks of 4 s, no gap, no overlap.
    const playlist = await (await fetch(new URL("480p/index.m3u8", done.playbackUrl))).text();
    const durations = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
    assert.equal(durations.length, 6, playlist);
    assert.ok(Math.abs(durations.reduce((a, b) => a + b, 0) - 24) < 0.1, playlist);
  });
});
