import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startListening } from "./listening";
import { CONNECTIONS, DURATION_S, type Figures, load, loadBodies, measure, WARM_S } from "./load";
import { makeClip, playerUrls, readyAsset } from "./playback";
import { presignedGet, type S3App } from "./s3-app";

/**
 * Playback origin throughput of ONE app instance: an asset's HLS served from the object
 * store, requested as players do (the media playlist the master leads to, then its segments).
 * - the main bench app (local disk store) and a second app on S3 (s3rver, its own process);
 * - baselines in the same run: plain node:http serving the same playlist and segment bytes
 *   from memory and from disk (bench/bare-files.ts), and s3rver answering a pre-signed GET
 *   of the same segment object itself (what the S3 app has to fetch per request).
 * Playlists are loaded by autocannon, segments by the node:http body loader (bench/load.ts).
 */

/** Uploads the clip as a user would; its media playlist and first segment as a player reaches them. */
async function playableAsset(base: string, key: string, file: string) {
  const asset = await readyAsset(base, key, file, { name: "bench origin" });
  const urls = await playerUrls(`${base}/api/playback/${asset.playbackId}`);
  return { assetId: asset.id, playlistUrl: urls.playlist, playlist: urls.playlistText, segmentUrl: urls.segment };
}

export async function benchOrigin(ctx: { appUrl: string; key: string; s3App: S3App }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-origin-"));
  const clip = path.join(dir, "clip.mp4");
  try {
    makeClip(clip);
    const local = await playableAsset(ctx.appUrl, ctx.key, clip);
    const onS3 = await playableAsset(ctx.s3App.url, ctx.s3App.key, clip);
    const files = path.join(dir, "files");
    fs.mkdirSync(files);
    fs.writeFileSync(path.join(files, "index.m3u8"), local.playlist);
    const segment = Buffer.from(await (await fetch(local.segmentUrl)).arrayBuffer());
    fs.writeFileSync(path.join(files, "segment.ts"), segment);
    const bare = await startListening("bench/bare-files.ts", [files]);
    const rows: [string, Figures][] = [];
    try {
      const storeUrl = await presignedGet(ctx.s3App.s3, `assets/${onS3.assetId}/`, onS3.segmentUrl);
      for (const [label, url, how] of [
        ["playlist  app, local disk store", local.playlistUrl, load],
        ["playlist  app, S3 store (s3rver)", onS3.playlistUrl, load],
        ["playlist  bare node:http, memory", `${bare.url}/mem/index.m3u8`, load],
        ["segment   app, local disk store", local.segmentUrl, loadBodies],
        ["segment   app, S3 store (s3rver)", onS3.segmentUrl, loadBodies],
        ["segment   s3rver itself, signed GET", storeUrl, loadBodies],
        ["segment   bare node:http, memory", `${bare.url}/mem/segment.ts`, loadBodies],
        ["segment   bare node:http, disk", `${bare.url}/disk/segment.ts`, loadBodies],
      ] as const) {
        rows.push([label, await measure(url, how)]);
      }
    } finally {
      bare.stop();
    }
    console.log(
      `\nOrigin: one app instance serving an asset's HLS (${CONNECTIONS} connections, ${DURATION_S} s each after ${WARM_S} s of warm-up; ` +
        `playlist ${local.playlist.length} B, segment ${(segment.length / 1024).toFixed(0)} KiB; latency in ms)`,
    );
    console.log("what                                  |   req/s |  p50 |  p99 |   MB/s | errors");
    for (const [label, f] of rows) {
      console.log(
        `${label.padEnd(37)} | ${f.rps.toFixed(0).padStart(7)} | ${String(f.p50).padStart(4)} | ${String(f.p99).padStart(4)} | ${f.mbps.toFixed(0).padStart(6)} | ${f.errors}`,
      );
    }
    const rps = Object.fromEntries(rows.map(([label, f]) => [label, f.rps]));
    const ratio = (a: string, b: string) => (rps[a] / rps[b]).toFixed(2);
    console.log(
      `app/bare: playlist local ${ratio("playlist  app, local disk store", "playlist  bare node:http, memory")}, ` +
        `segment local ${ratio("segment   app, local disk store", "segment   bare node:http, disk")} (vs bare from disk); ` +
        `segment S3 app/s3rver itself ${ratio("segment   app, S3 store (s3rver)", "segment   s3rver itself, signed GET")}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
