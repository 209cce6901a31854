import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { freePort } from "@/lib/net/free-port";
import { spawnTied } from "@/lib/tied-process";
import { startAppProcess } from "../scripts/app-process";
import { ensurePrograms, NGINX } from "../scripts/prerequisites";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import type { z } from "zod";
import type { StreamCreate } from "@/lib/streams/schema";
import { withKey } from "./api-call";
import { flvSource, publishCopy } from "./broadcast";
import { startListening } from "./listening";
import { CONNECTIONS, DURATION_S, type Figures, type Load, load, loadBodies, measure, WARM_S } from "./load";
import { startNginx } from "./nginx";
import { makeClip, type PlayerUrls, playerUrls, readyAsset, viewerJwts } from "./playback";
import { procStat, treeCpuSeconds } from "./process-cpu";
import { presignedGet, startS3App } from "./s3-app";
import type { ViewersJob, ViewersResult } from "./viewers";

/**
 * Delivery at scale (issue 25): the viewer path of ONE app instance, measured through HTTP only
 * (the API, the playback info, the playlists' URLs and tokens), each figure beside a floor
 * measured in the same run on the same machine:
 * 1. a live and a VOD media playlist at 32 and 256 connections (autocannon), against plain
 *    node:http answering the same bytes from memory and nginx serving them from disk;
 * 2. a 2 s 720p live segment (~1 MB), 32 connections, from the local disk store and from S3
 *    (s3rver, a second app with a media node of its own), against plain node:http streaming the
 *    same file from the same store (a stat and a read stream; a pre-signed GET piped through)
 *    and nginx serving it from disk;
 * 3. public vs JWT-gated (URLs with the playback token) for the same live and VOD media playlist
 *    and segment, interleaved so that neither side gets the warmer machine;
 * 4. thousands of simulated HLS viewers (bench/viewers.ts) of one live stream during a real
 *    broadcast: errors, playlist and segment latencies, and the CPU of the app's process tree
 *    per 1,000 viewers beside the same tree with the broadcast and no viewer; PostgreSQL's CPU
 *    and the load generators' own beside it.
 * Broadcasts are pre-encoded files published with -c copy (bench/broadcast.ts) and get no
 * transcoded renditions (source copy only), so the CPU goes to delivery.
 */
const PLAYLIST_CONNECTIONS = [CONNECTIONS, 256];
/** 720p at this rate makes the ~1 MB 2 s segments a 720p broadcast has. */
const HD_KBPS = 3800;
/**
 * The simulated viewers watch a 360p broadcast at this rate (~190 KB segments): 2,000 of them
 * then pull ~190 MB/s, which this machine's loopback and load generators carry beside the app;
 * at 720p they would pull 1 GB/s and measure the generators.
 */
const CROWD_KBPS = 600;
const SOURCE_S = 20;
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 2000);
/** Load generator processes, each with its keep-alive Agent: one node thread tops out below 2,000 viewers' requests. */
const VIEWER_PROCESSES = 2;
const VIEWERS_RAMP_S = 5;
const VIEWERS_RUN_S = 35;
/** The broadcast alone, before any viewer: the app tree's floor. */
const IDLE_S = 10;
/** From spawning the generators to the first viewer: their tsx start-up, with a margin. */
const VIEWERS_START_MS = 5000;
/** Little's law: 1,500 requests/s answered within 100 ms keep 150 sockets busy; more only queue in the server. */
const VIEWER_SOCKETS = 512;
const REQUEST_TIMEOUT_MS = 10_000;
const GATED_ROUNDS = 2;
const LIVE_READY_MS = 60_000;

const TARGET = { playlistVsBare: 0.5, playlistP99Ms: 50, segmentVsBare: 0.7, segmentVsNginx: 0.5, gatedVsPublic: 0.9, viewersP99Ms: 100 };

type Ctx = { env: NodeJS.ProcessEnv; key: string };
type Stream = { id: string; playbackId: string; streamKey: string };
type Stop = () => Promise<void>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));
const verdict = (met: boolean) => (met ? "MET" : "MISSED");
const ratio = (a: number, b: number) => (a / b).toFixed(2);
/** Runs `stop` once, however often called: once where a part is done with it, again in the final clean-up. */
const once = (stop: Stop): Stop => {
  let done: Promise<void> | undefined;
  return () => (done ??= stop());
};
const named = (playlist: string) =>
  playlist
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.trim());

function printTable(title: string, head: string[], rows: (string | number)[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  for (const row of [head, ...rows]) console.log(row.map((c, i) => (i ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(" | "));
}

/**
 * Publishes `source` to the stream (the app's media node listening on rtmpPort) until stopped;
 * resolves once a player (with `headers`) reaches a media playlist naming two segments, with
 * the second (a whole one: the first starts with the broadcast) as the segment to measure.
 */
async function goLive(appUrl: string, rtmpPort: number, stream: Stream, source: string, headers: Record<string, string> = {}) {
  const publisher = publishCopy(source, `rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`);
  const exited = new Promise<void>((resolve) => publisher.once("exit", () => resolve()));
  const stop = once(async () => {
    if (publisher.exitCode === null && publisher.signalCode === null) publisher.kill("SIGINT");
    await exited;
  });
  const until = Date.now() + LIVE_READY_MS;
  for (;;) {
    const urls = await playerUrls(`${appUrl}/api/playback/${stream.playbackId}`, headers).catch((err: Error) => err);
    const segments = urls instanceof Error ? [] : named(urls.playlistText);
    if (!(urls instanceof Error) && segments.length >= 2) return { ...urls, segment: new URL(segments[1], urls.playlist).href, stop };
    if (Date.now() > until || publisher.exitCode !== null) {
      await stop();
      throw new Error(
        `stream ${stream.id} not playable ${LIVE_READY_MS / 1000} s after publishing: ${urls instanceof Error ? urls.message : "fewer than 2 segments"}`,
      );
    }
    await sleep(250);
  }
}

async function bytesOf(url: string) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The embedded PostgreSQL's postmaster (the parent of this process's backend), when it runs on this machine. */
async function postgresPid(): Promise<number | undefined> {
  const [row] = await db().execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
  const backend = procStat(row.pid);
  return backend?.comm === "postgres" ? backend.ppid : undefined;
}

/** Part 1: the media playlists against the floors, at each connection count. */
async function playlists(urls: { live: PlayerUrls; vod: PlayerUrls }, floors: { bare: string; nginx: string }, edge: string) {
  const rows: (string | number)[][] = [];
  for (const [kind, player, file] of [
    ["live", urls.live, "live.m3u8"],
    ["VOD", urls.vod, "vod.m3u8"],
  ] as const) {
    for (const connections of PLAYLIST_CONNECTIONS) {
      const app = await measure(player.playlist, load, connections);
      // The same playlist from `npm run edge`: the delivery plane in a process without Next.js.
      const onEdge = await measure(`${edge}${new URL(player.playlist).pathname}`, load, connections);
      const bare = await measure(`${floors.bare}/mem/${file}`, load, connections);
      const nginx = await measure(`${floors.nginx}/${file}`, load, connections);
      const met = app.rps / bare.rps >= TARGET.playlistVsBare && (connections !== CONNECTIONS || app.p99 < TARGET.playlistP99Ms);
      rows.push([
        `${kind} (${player.playlistText.length} B)`,
        connections,
        Math.round(app.rps),
        app.p99,
        Math.round(onEdge.rps),
        onEdge.p99,
        Math.round(bare.rps),
        bare.p99,
        Math.round(nginx.rps),
        nginx.p99,
        ratio(app.rps, bare.rps),
        ratio(onEdge.rps, bare.rps),
        ratio(app.rps, nginx.rps),
        `${app.errors}/${onEdge.errors}/${bare.errors}/${nginx.errors}`,
        verdict(met),
      ]);
    }
  }
  printTable(
    `Delivery 1: media playlists, one app instance and the same from \`npm run edge\` (autocannon, ${DURATION_S} s after ${WARM_S} s of warm-up; p99 in ms; errors app/edge/bare/nginx); ` +
      `targets: app/bare >= ${TARGET.playlistVsBare}, p99 < ${TARGET.playlistP99Ms} ms at ${CONNECTIONS} connections`,
    [
      "media playlist",
      "conns",
      "app req/s",
      "p99",
      "edge req/s",
      "p99",
      "bare node:http req/s",
      "p99",
      "nginx req/s",
      "p99",
      "app/bare",
      "edge/bare",
      "app/nginx",
      "errors",
      "target",
    ],
    rows,
  );
}

/** Part 2: a segment from each store against the floors. */
async function segments(rows: { store: string; app: string; bare: string; nginx: string; bytes: number }[]) {
  const printed: (string | number)[][] = [];
  for (const row of rows) {
    const [app, bare, nginx] = [await measure(row.app, loadBodies), await measure(row.bare, loadBodies), await measure(row.nginx, loadBodies)];
    const met = app.rps / bare.rps >= TARGET.segmentVsBare && app.rps / nginx.rps >= TARGET.segmentVsNginx;
    printed.push([
      `${row.store} (${(row.bytes / 1e6).toFixed(2)} MB)`,
      Math.round(app.rps),
      Math.round(app.mbps),
      app.p99,
      Math.round(bare.rps),
      Math.round(bare.mbps),
      Math.round(nginx.rps),
      Math.round(nginx.mbps),
      ratio(app.rps, bare.rps),
      ratio(app.rps, nginx.rps),
      `${app.errors}/${bare.errors}/${nginx.errors}`,
      verdict(met),
    ]);
  }
  printTable(
    `Delivery 2: a 2 s 720p live segment, one app instance, ${CONNECTIONS} connections (node:http body loader; p99 in ms); ` +
      `bare node:http streams it from the same store, nginx from disk; targets: app/bare >= ${TARGET.segmentVsBare}, app/nginx >= ${TARGET.segmentVsNginx}`,
    ["segment, store", "app req/s", "MB/s", "p99", "bare req/s", "MB/s", "nginx req/s", "MB/s", "app/bare", "app/nginx", "errors", "target"],
    printed,
  );
}

/** Part 3: the same playlists and segments public and gated, interleaved over GATED_ROUNDS rounds. */
async function gatedVsPublic(pairs: { what: string; open: string; gated: string; how: Load }[]) {
  const measured = new Map(pairs.map((p) => [p.what, { open: [] as Figures[], gated: [] as Figures[] }]));
  for (let round = 0; round < GATED_ROUNDS; round++) {
    for (const pair of pairs) {
      measured.get(pair.what)!.open.push(await measure(pair.open, pair.how));
      measured.get(pair.what)!.gated.push(await measure(pair.gated, pair.how));
    }
  }
  const mean = (runs: Figures[]) => runs.reduce((sum, f) => sum + f.rps, 0) / runs.length;
  const worstP99 = (runs: Figures[]) => Math.max(...runs.map((f) => f.p99));
  const errors = (runs: Figures[]) => runs.reduce((sum, f) => sum + f.errors, 0);
  printTable(
    `Delivery 3: public vs JWT-gated (URLs with the playback token), one app instance, ${CONNECTIONS} connections, mean of ${GATED_ROUNDS} interleaved rounds ` +
      `(p99: the worse round, ms); target: gated/public >= ${TARGET.gatedVsPublic}`,
    ["what", "public req/s", "p99", "gated req/s", "p99", "gated/public", "errors", "target"],
    pairs.map(({ what }) => {
      const { open, gated } = measured.get(what)!;
      return [
        what,
        Math.round(mean(open)),
        worstP99(open),
        Math.round(mean(gated)),
        worstP99(gated),
        ratio(mean(gated), mean(open)),
        errors(open) + errors(gated),
        verdict(mean(gated) / mean(open) >= TARGET.gatedVsPublic),
      ];
    }),
  );
}

/** VIEWERS viewers in VIEWER_PROCESSES generator processes; the app's and PostgreSQL's CPU over the window where all have joined. */
async function viewersOf(masterUrl: string, appPid: number, pgPid: number | undefined) {
  const cpu = () => ({ app: treeCpuSeconds(appPid), pg: pgPid ? treeCpuSeconds(pgPid) : Number.NaN, at: performance.now() });
  const cores = (a: ReturnType<typeof cpu>, b: ReturnType<typeof cpu>) => ({
    app: (b.app - a.app) / ((b.at - a.at) / 1000),
    pg: (b.pg - a.pg) / ((b.at - a.at) / 1000),
  });
  const idleFrom = cpu();
  await sleep(IDLE_S * 1000);
  const idle = cores(idleFrom, cpu());

  const startAt = Date.now() + VIEWERS_START_MS;
  const per = Math.ceil(VIEWERS / VIEWER_PROCESSES);
  const generators = Array.from({ length: VIEWER_PROCESSES }, (_, i) => {
    const job: ViewersJob = {
      masterUrl,
      viewers: Math.min(per, VIEWERS - i * per),
      startAt,
      rampS: VIEWERS_RAMP_S,
      runS: VIEWERS_RUN_S,
      maxSockets: VIEWER_SOCKETS,
      timeoutMs: REQUEST_TIMEOUT_MS,
    };
    const child = spawnTied(process.execPath, ["--import", "tsx", "bench/viewers.ts", JSON.stringify(job)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout!.on("data", (c) => (out += c));
    return new Promise<ViewersResult>((resolve, reject) =>
      child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as ViewersResult) : reject(new Error(`bench/viewers.ts exited ${code}`)))),
    );
  });
  const done = Promise.all(generators);
  done.catch(() => undefined); // awaited below, after the window: a generator failing sooner must not crash the bench unhandled
  await sleepUntil(startAt + VIEWERS_RAMP_S * 1000);
  const loadedFrom = cpu();
  await sleepUntil(startAt + VIEWERS_RUN_S * 1000);
  const loaded = cores(loadedFrom, cpu());
  const results = await done;
  return { idle, loaded, results, windowS: VIEWERS_RUN_S - VIEWERS_RAMP_S };
}

function printViewers(source: string, targetS: number, v: Awaited<ReturnType<typeof viewersOf>>) {
  const all = (pick: (r: ViewersResult) => number[]) => v.results.flatMap(pick).sort((a, b) => a - b);
  const at = (xs: number[], q: number) => (xs.length ? Math.round(xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]) : Number.NaN);
  const spread = (xs: number[]) => `p50 ${at(xs, 0.5)}, p99 ${at(xs, 0.99)}, max ${at(xs, 1)} ms`;
  const playlistMs = all((r) => r.playlistMs);
  const segmentMs = all((r) => r.segmentMs);
  const errors: Record<string, number> = {};
  for (const r of v.results) for (const [cause, n] of Object.entries(r.errors)) errors[cause] = (errors[cause] ?? 0) + n;
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const bytes = v.results.reduce((sum, r) => sum + r.segmentBytes, 0);
  const perThousand = VIEWERS / 1000;
  const late = Math.max(...v.results.map((r) => r.lateMs));
  console.log(
    `\nDelivery 4: ${VIEWERS.toLocaleString("en")} simulated HLS viewers of one live stream (${source}), one app instance; ` +
      `joined over ${VIEWERS_RAMP_S} s, ${VIEWERS_RUN_S} s in all, from ${VIEWER_PROCESSES} load generator processes`,
  );
  const perSecond = (n: number) => `${(n / VIEWERS_RUN_S).toFixed(0)}/s`;
  // What the viewers ask once all have joined: one media playlist each per target duration.
  const asked = VIEWERS / targetS;
  const answered = playlistMs.length / VIEWERS_RUN_S / asked;
  console.log(
    `  playlist answers: ${playlistMs.length}, ${perSecond(playlistMs.length)} of the ${asked.toFixed(0)}/s asked (${spread(playlistMs)}); ` +
      `target p99 < ${TARGET.viewersP99Ms} ms: ${verdict(at(playlistMs, 0.99) < TARGET.viewersP99Ms)}`,
  );
  console.log(
    `  segment fetches: ${segmentMs.length}, ${perSecond(segmentMs.length)} (${spread(segmentMs)}), ${(bytes / 1e6 / VIEWERS_RUN_S).toFixed(0)} MB/s on average`,
  );
  console.log(`  errors: ${errorCount}${errorCount ? ` ${JSON.stringify(errors)}` : ""}; target 0: ${verdict(errorCount === 0)}`);
  console.log(
    `  app process tree CPU over the last ${v.windowS} s: ${v.loaded.app.toFixed(2)} cores = ${(v.loaded.app / perThousand).toFixed(2)} cores per 1,000 viewers; ` +
      `the broadcast alone (no viewer, ${IDLE_S} s before) ${v.idle.app.toFixed(2)} cores, so the viewers' own ${((v.loaded.app - v.idle.app) / perThousand).toFixed(2)} cores per 1,000` +
      (answered < 0.9 ? ` (a floor: the app answered ${(answered * 100).toFixed(0)}% of the polls asked, saturated)` : ""),
  );
  console.log(
    Number.isNaN(v.loaded.pg)
      ? "  PostgreSQL CPU: not measured (the database is not on this machine)"
      : `  PostgreSQL CPU (its queries for the app): ${v.loaded.pg.toFixed(2)} cores; with the broadcast alone ${v.idle.pg.toFixed(2)}`,
  );
  const generators = v.results.map((r) => r.cpuS / v.windowS);
  console.log(
    `  load generators' CPU: ${generators.map((c) => c.toFixed(2)).join(" + ")} cores` +
      (generators.some((c) => c > 0.9)
        ? " (one near a whole core: it may have been the bottleneck, the figures are a floor)"
        : " (each below 0.9 of a core: none saturated its thread)") +
      (late > 1000 ? `; a generator started ${(late / 1000).toFixed(1)} s late, the ramp was shorter` : ""),
  );
}

export async function benchDelivery(ctx: Ctx) {
  ensurePrograms([NGINX]); // before minutes of set-up, not after them
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-delivery-"));
  const stops: Stop[] = [];
  /** What the run started, stopped at the end in reverse order whatever happens; the stop function, to stop it sooner. */
  const owned = (stop: Stop) => {
    const stopOnce = once(stop);
    stops.push(stopOnce);
    return stopOnce;
  };
  try {
    const hd = path.join(dir, "720p.flv");
    const crowdSource = path.join(dir, "360p.flv");
    const clip = path.join(dir, "clip.mp4");
    flvSource(hd, { seconds: SOURCE_S, size: "1280x720", kbps: HD_KBPS });
    flvSource(crowdSource, { seconds: SOURCE_S, size: "640x360", kbps: CROWD_KBPS });
    makeClip(clip);

    // The instance measured: a media node with it, the bench's store (its jobs may run in the main bench app).
    const rtmpPort = await freePort();
    const app = await startAppProcess({ ...ctx.env, PORT: "0", HOST: "127.0.0.1", RTMP_PORT: String(rtmpPort), RTMP_HOST: "127.0.0.1" });
    owned(app.stop);
    const s3RtmpPort = await freePort();
    const s3App = await startS3App({ ...ctx.env, RTMP_PORT: String(s3RtmpPort), RTMP_HOST: "127.0.0.1" });
    const stopS3App = owned(s3App.stop);

    const stream = async (appUrl: string, key: string, name: string, body: Omit<z.input<typeof StreamCreate>, "name"> = {}): Promise<Stream> => {
      const { id, playbackId, streamKey } = await call(operations.createStream, { body: { name, ...body } }, withKey(appUrl, key));
      // A new stream has both (they are optional only on historic child-session objects).
      return { id, playbackId: playbackId!, streamKey: streamKey! };
    };
    const open = await stream(app.url, ctx.key, "bench delivery");
    const gated = await stream(app.url, ctx.key, "bench delivery gated", { playbackPolicy: { type: "jwt" } });
    const crowd = await stream(app.url, ctx.key, "bench delivery viewers");
    const onS3 = await stream(s3App.url, s3App.key, "bench delivery");
    const vodOpen = await readyAsset(app.url, ctx.key, clip, { name: "bench delivery" });
    const vodGated = await readyAsset(app.url, ctx.key, clip, { name: "bench delivery gated", playbackPolicy: { type: "jwt" } });
    const jwtFor = await viewerJwts(app.url, ctx.key);
    const jwtHeaders = async (playbackId: string) => ({ "livepeer-jwt": await jwtFor(playbackId) });
    const info = (playbackId: string) => `${app.url}/api/playback/${playbackId}`;
    const vod = await playerUrls(info(vodOpen.playbackId));
    const vodWithToken = await playerUrls(info(vodGated.playbackId), await jwtHeaders(vodGated.playbackId));

    const live = await goLive(app.url, rtmpPort, open, hd);
    owned(live.stop);
    const liveOnS3 = await goLive(s3App.url, s3RtmpPort, onS3, hd);
    const stopLiveOnS3 = owned(liveOnS3.stop);

    // The floors' copies of the same bytes, fetched as a player would.
    const files = path.join(dir, "files");
    fs.mkdirSync(files);
    const segment = await bytesOf(live.segment);
    const segmentOnS3 = await bytesOf(liveOnS3.segment);
    fs.writeFileSync(path.join(files, "live.m3u8"), live.playlistText);
    fs.writeFileSync(path.join(files, "vod.m3u8"), vod.playlistText);
    fs.writeFileSync(path.join(files, "live.ts"), segment);
    fs.writeFileSync(path.join(files, "s3.ts"), segmentOnS3);
    const s3Object = await presignedGet(s3App.s3, "live/", liveOnS3.segment);
    const bare = await startListening("bench/bare-files.ts", [files, `s3.ts=${s3Object}`]);
    const stopBare = owned(async () => bare.stop());
    const nginx = await startNginx(files);
    const stopNginx = owned(nginx.stop);

    console.log(`\nDelivery: the viewer path of one app instance beside floors measured in the same run (Debian's nginx ${nginxVersion()}, one worker)`);
    const edge = await startAppProcess({ ...ctx.env, EDGE_PORT: "0", HOST: "127.0.0.1" }, { script: "scripts/edge.ts", log: "edge.log" });
    const stopEdge = owned(edge.stop);
    await playlists({ live, vod }, { bare: bare.url, nginx: nginx.url }, edge.url);
    await stopEdge();
    await segments([
      { store: "local disk", app: live.segment, bare: `${bare.url}/disk/live.ts`, nginx: `${nginx.url}/live.ts`, bytes: segment.length },
      { store: "S3 (s3rver)", app: liveOnS3.segment, bare: `${bare.url}/s3/s3.ts`, nginx: `${nginx.url}/s3.ts`, bytes: segmentOnS3.length },
    ]);
    await stopLiveOnS3();
    await stopS3App();
    await stopBare();
    await stopNginx();

    const liveWithToken = await goLive(app.url, rtmpPort, gated, hd, await jwtHeaders(gated.playbackId));
    owned(liveWithToken.stop);
    if (![liveWithToken.segment, vodWithToken.segment].every((u) => u.includes("tkn="))) throw new Error("a gated segment URL has no playback token");
    await gatedVsPublic([
      { what: "live media playlist", open: live.playlist, gated: liveWithToken.playlist, how: load },
      { what: "live segment", open: live.segment, gated: liveWithToken.segment, how: loadBodies },
      { what: "VOD media playlist", open: vod.playlist, gated: vodWithToken.playlist, how: load },
      { what: "VOD segment", open: vod.segment, gated: vodWithToken.segment, how: loadBodies },
    ]);
    await liveWithToken.stop();
    await live.stop();

    const crowdLive = await goLive(app.url, rtmpPort, crowd, crowdSource);
    owned(crowdLive.stop);
    const crowdSegment = await bytesOf(crowdLive.segment);
    const viewers = await viewersOf(crowdLive.master, app.child.pid!, await postgresPid());
    const targetS = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(crowdLive.playlistText)?.[1]);
    printViewers(`640x360 at ${CROWD_KBPS} kbit/s, ${(crowdSegment.length / 1e3).toFixed(0)} KB segments, source copy only`, targetS, viewers);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function nginxVersion() {
  // nginx prints its version on stderr: "nginx version: nginx/1.22.1".
  return /nginx\/(\S+)/.exec(spawnSync(NGINX.bin, ["-v"], { encoding: "utf8" }).stderr)?.[1] ?? "";
}
