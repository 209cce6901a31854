import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { signAccessJwt } from "@livepeer/core/crypto";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { NGINX } from "../scripts/prerequisites";
import { BASE, call, newAccount } from "./support/client";
import { publish, rtmpUrl, streamActive, until } from "./support/media";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * The shipped CDN set-up (deploy/nginx-cdn.conf, Debian's nginx) in front of two app instances:
 * hundreds of HLS viewers of one live stream cost the origins a near-constant request rate, and
 * gated content is never handed from the cache to a viewer without a valid token.
 */
const VIEWERS = 200;
const WATCH_S = 12;

const tmp = tmpDir();
let second: AppProcess;
let nginx: ChildProcess;
let cdn: string;
const accessLog = path.join(tmp, "access.log");

/** deploy/nginx-cdn.conf as shipped, with this test's instances, port and folders in place of the example's. */
async function startCdn(origins: string[]): Promise<string> {
  const port = await freePort();
  const cache = path.join(tmp, "cache");
  fs.mkdirSync(cache, { mode: 0o777 });
  // Workers run as nobody when nginx starts as root: the folders they write must let them.
  fs.chmodSync(cache, 0o777);
  fs.chmodSync(tmp, 0o755);
  const shipped = fs.readFileSync(path.join(process.cwd(), "deploy/nginx-cdn.conf"), "utf8");
  const site = shipped
    .replace(/proxy_cache_path \/var\/cache\/nginx\/castline /, `proxy_cache_path ${cache}/entries `)
    .replace(/ {4}server app1:3000;\n {4}server app2:3000;/, origins.map((o) => `    server ${new URL(o).host};`).join("\n"))
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  assert.notEqual(site, shipped);
  const conf = path.join(tmp, "nginx.conf");
  fs.writeFileSync(
    conf,
    `daemon off;\nworker_processes 1;\npid ${tmp}/nginx.pid;\nerror_log ${tmp}/error.log warn;\nevents { worker_connections 1024; }\nhttp {\n` +
      `  client_body_temp_path ${cache}/body; proxy_temp_path ${cache}/proxy; fastcgi_temp_path ${cache}/fastcgi; uwsgi_temp_path ${cache}/uwsgi; scgi_temp_path ${cache}/scgi;\n` +
      // What reached an origin ($upstream_addr is "-" for an answer from the cache), background refreshes included.
      `  log_format origin '$uri $upstream_cache_status $upstream_addr $status';\n  access_log ${accessLog} origin;\n  log_subrequest on;\n${site}\n}\n`,
  );
  const check = spawnSync(NGINX.bin, ["-t", "-p", tmp, "-c", conf], { encoding: "utf8" });
  assert.equal(check.status, 0, check.stderr);
  nginx = spawn(NGINX.bin, ["-p", tmp, "-c", conf], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await until(
    "nginx to listen",
    async () =>
      fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    20_000,
    100,
  );
  return url;
}

/** Requests the cache passed to an origin, by path, from its log. */
const originRequests = () =>
  fs
    .readFileSync(accessLog, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split(" "))
    .filter(([, , upstream]) => upstream !== "-")
    .map(([uri]) => uri);

before(async () => {
  second = await startAppProcess({ ...process.env, PORT: "0", HOST: "127.0.0.1", MEDIA_NODE: "false", JOB_WORKERS: "0" });
  cdn = await startCdn([BASE, second.url]);
});
after(async () => {
  nginx?.kill("SIGQUIT");
  await second?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A player: the master once, then its media playlist every target duration and each new segment once. */
async function viewer(masterUrl: string, until: number, seen: Map<string, number>, errors: string[]) {
  const get = async (url: string) => {
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    if (!res.ok) errors.push(`${res.status} ${url}`);
    return body.toString();
  };
  const master = await get(masterUrl);
  const mediaUrl = new URL(master.split("\n").find((l) => l.endsWith(".m3u8"))!, masterUrl).href;
  const fetched = new Set<string>();
  while (Date.now() < until) {
    const playlist = await get(mediaUrl);
    const segments = playlist.split("\n").filter((l) => l.endsWith(".ts"));
    // A player joins at the live edge: the last three segments, then each new one.
    for (const s of fetched.size ? segments : segments.slice(-3)) {
      if (fetched.has(s)) continue;
      fetched.add(s);
      seen.set(s, (seen.get(s) ?? 0) + 1);
      await get(new URL(s, mediaUrl).href);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

describe("a CDN (nginx proxy_cache, deploy/nginx-cdn.conf) in front of two app instances", () => {
  test(`${VIEWERS} viewers of a live stream cost the origins about one playlist a second and one fetch per segment`, async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "cdn", profiles: [] })).body;
    const encoder = publish(rtmpUrl(stream.streamKey), { size: "320x180", seconds: 60 });
    try {
      await streamActive(api, stream.id);
      const masterUrl = `${cdn}/hls/${stream.playbackId}/index.m3u8`;
      await until("the stream to play through the CDN", async () => (await fetch(masterUrl)).ok, 60_000);
      fs.truncateSync(accessLog);
      const started = Date.now();
      const end = started + WATCH_S * 1000;
      const seen = new Map<string, number>();
      const errors: string[] = [];
      // Viewers arrive over the first two seconds, as a real audience does.
      await Promise.all(
        Array.from({ length: VIEWERS }, (_, i) => new Promise((r) => setTimeout(r, (i * 2000) / VIEWERS)).then(() => viewer(masterUrl, end, seen, errors))),
      );
      const seconds = (Date.now() - started) / 1000;
      assert.deepEqual(errors, []);

      const toOrigin = originRequests();
      // /hls/<playbackId>/<session>/<epoch>/<variant>/index.m3u8
      const playlists = toOrigin.filter((u) => u.endsWith("/index.m3u8") && u.split("/").length === 7);
      const segments = toOrigin.filter((u) => u.endsWith(".ts"));
      const masters = toOrigin.filter((u) => u === `/hls/${stream.playbackId}/index.m3u8`);
      const asked = [...seen.values()].reduce((a, b) => a + b, 0);
      console.log(
        `${VIEWERS} viewers for ${seconds.toFixed(1)} s asked for ${asked} segments (${seen.size} distinct) and about ${Math.round((VIEWERS * seconds) / 2)} media playlists; ` +
          `the origins answered ${playlists.length} media playlists, ${segments.length} segments, ${masters.length} masters (never cached: one per viewer)`,
      );
      assert.ok(seen.size >= 3 && asked >= VIEWERS * 3, `viewers fetched ${asked} segments`);
      // One rendition (the source): about one a second, however many viewers.
      assert.ok(playlists.length <= Math.ceil(seconds * 1.5) + 2, `${playlists.length} media playlists in ${seconds.toFixed(1)} s`);
      assert.ok(segments.length <= seen.size, `${segments.length} segment fetches for ${seen.size} segments`);
      // The master is never cached: each viewer's reached an origin (nginx may log the readiness check's after the count starts).
      assert.ok(masters.length >= VIEWERS && masters.length <= VIEWERS + 1, `${masters.length} masters`);
    } finally {
      await encoder.stop();
    }
  });

  test("gated content is never served from the cache to a viewer without a valid token", async () => {
    const api = await newAccount();
    const key = (await call("POST", "access-control/signing-key", { auth: `Bearer ${api.key}` })).body;
    const file = await makeMedia(tmp, "mp4", { seconds: 4, size: "320x180" });
    const requested = await api.post("asset/request-upload", { name: "gated", playbackPolicy: { type: "jwt" } });
    assert.equal((await putFile(requested.body.url, file)).status, 200);
    const { playbackId } = requested.body.asset;
    assert.equal((await settled(api, requested.body.asset.id)).status.phase, "ready");

    const jwt = await signAccessJwt({ privateKey: key.privateKey, publicKey: key.publicKey, issuer: "https://example.com", playbackId, expiration: 3600 });
    const info = await (await fetch(`${cdn}/api/playback/${playbackId}`, { headers: { "livepeer-jwt": jwt } })).json();
    const hls = new URL(info.meta.source.find((s: { hrn: string }) => s.hrn === "HLS (TS)").url);
    const admitted = `${cdn}${hls.pathname}${hls.search}`;
    const bare = `${cdn}${hls.pathname}`;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(admitted);
      assert.equal(res.status, 200);
      assert.notEqual(res.headers.get("x-cache-status"), "HIT", "a viewer's answer is not kept for others");
      assert.match(res.headers.get("cache-control") ?? "", /private/);
      await res.body?.cancel();
      const refused = await fetch(bare);
      assert.equal(refused.status, 401, "no token, no video: whatever the cache saw before");
      await refused.body?.cancel();
      const forged = await fetch(`${bare}?tkn=${"a".repeat(8)}.${"b".repeat(22)}`);
      assert.equal(forged.status, 403);
      await forged.body?.cancel();
    }
  });
});

// A failure midway leaves no nginx behind.
process.once("exit", () => nginx?.kill("SIGKILL"));
