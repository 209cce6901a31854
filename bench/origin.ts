import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import autocannon from "autocannon";
import { startListening } from "./listening";
import type { S3App } from "./s3-app";
import { putFile } from "./vod";

/**
 * Playback origin throughput of ONE app instance: an asset's HLS served from the object
 * store, requested as players do (the playlist, then segments), by autocannon.
 * - the main bench app (local disk store) and a second app on S3 (s3rver, its own process);
 * - baselines in the same run: plain node:http serving the same playlist and segment bytes
 *   from memory and from disk (bench/bare-files.ts), and s3rver answering a pre-signed GET
 *   of the same segment object itself (what the S3 app has to fetch per request).
 * The clip is 720p30 at 3 Mbit/s, so a segment weighs what a real 720p one does.
 * Playlists are loaded by autocannon; segments by a node:http client (N keep-alive
 * connections, each requesting the next segment as soon as the last one is read), since
 * autocannon parses bodies in JavaScript and tops out at ~40-60 MB/s here, below every
 * server measured.
 */
const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 6);
const WARM_S = 2;
const CLIP_S = 12;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  mbps: number;
  errors: number;
}

async function load(url: string, duration = DURATION_S): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mbps: r.throughput.average / 1e6, errors: r.errors + r.non2xx };
}

/** CONNECTIONS keep-alive connections fetching whole bodies back to back, through llhttp. */
export async function loadBodies(url: string, duration = DURATION_S): Promise<Figures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + duration * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      http
        .get(url, { agent }, (res) => {
          if (res.statusCode !== 200) errors++;
          res.on("data", (c: Buffer) => (bytes += c.length));
          res.on("end", () => {
            latencies.push(performance.now() - t);
            resolve();
          });
          res.on("error", () => (errors++, resolve()));
        })
        .on("error", () => (errors++, resolve()));
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), mbps: bytes / 1e6 / seconds, errors };
}

async function measure(url: string, how: typeof load) {
  await how(url, WARM_S); // JIT, connection pools, the OS page cache
  return how(url);
}

// biome-ignore lint/suspicious/noExplicitAny: the answer is what the caller reads; typed calls pass T
export async function api<T = any>(base: string, key: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /api/${p}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export function makeClip(file: string) {
  const r = spawnSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=30:duration=${CLIP_S}`,
    "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${CLIP_S}`,
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "60", "-b:v", "3000k", "-maxrate", "3000k", "-bufsize", "6000k",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

/** Uploads the clip as a user would and waits until its HLS answers; the playlist and first segment URLs. */
async function playableAsset(base: string, key: string, file: string) {
  const { url, asset } = await api<{ url: string; asset: { id: string } }>(base, key, "POST", "asset/request-upload", { name: "bench origin" });
  const put = await putFile(url, file);
  if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}: ${put.body.slice(0, 300)}`);
  const until = Date.now() + 120_000;
  for (;;) {
    const a = await api<{ status: { phase: string; errorMessage?: string }; playbackUrl?: string }>(base, key, "GET", `asset/${asset.id}`);
    if (a.status.phase === "failed") throw new Error(`asset failed: ${a.status.errorMessage}`);
    if (a.status.phase === "ready" && a.playbackUrl) {
      const playlist = await (await fetch(a.playbackUrl)).text();
      const first = playlist.split("\n").find((l) => l.trim() && !l.startsWith("#"))!;
      return { assetId: asset.id, playlistUrl: a.playbackUrl, playlist, segmentUrl: new URL(first.trim(), a.playbackUrl).href, segmentName: first.trim() };
    }
    if (Date.now() > until) throw new Error(`asset ${asset.id} not ready after 2 min`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A pre-signed GET of the segment object, straight from the store. */
async function storeSegmentUrl(s3: S3App["s3"], assetId: string, segmentName: string) {
  const client = new S3Client({
    endpoint: s3.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `assets/${assetId}/` }));
  const key = listed.Contents?.find((o) => o.Key?.endsWith(`/${segmentName}`))?.Key;
  if (!key) throw new Error(`no object for ${segmentName} under assets/${assetId}/`);
  return getSignedUrl(client, new GetObjectCommand({ Bucket: s3.bucket, Key: key }), { expiresIn: 3600 });
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
      const storeUrl = await storeSegmentUrl(ctx.s3App.s3, onS3.assetId, onS3.segmentName);
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
