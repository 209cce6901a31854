import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { signAccessJwt } from "@livepeer/core/crypto";
import { importPKCS8, SignJWT } from "jose";
import { Livepeer } from "livepeer";
import { BASE, call, newAccount, type Api } from "./support/client";
import { publish, rtmpUrl, streamActive, streamIdle, until } from "./support/media";
import { sleep } from "./support/receiver";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

const tmp = tmpDir();

interface Key {
  id: string;
  publicKey: string;
  privateKey: string;
}

/** A viewer JWT as Livepeer's own helper makes it (@livepeer/core). */
const jwtFor = (key: Key, playbackId: string, expiration = 3600) =>
  signAccessJwt({ privateKey: key.privateKey, publicKey: key.publicKey, issuer: "https://example.com", playbackId, expiration });

/** The same with jose, for claims the helper will not make (an exp in the past, another action). */
async function joseJwt(key: Key, claims: Record<string, unknown>, exp: number) {
  const privateKey = await importPKCS8(Buffer.from(key.privateKey, "base64").toString(), "ES256");
  return new SignJWT({ pub: key.publicKey, action: "pull", ...claims })
    .setProtectedHeader({ alg: "ES256", typ: "JWT" })
    .setExpirationTime(exp)
    .sign(privateKey);
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const errorOf = async (res: Response) => ((await res.json()) as { errors: string[] }).errors[0];
/** A refusal as a player reads it: why (lib/access/refusal.ts), what it refuses, the detail. */
const refusalOf = async (res: Response) => {
  const body = (await res.json()) as { errors: string[]; refusal: string; type?: string };
  return { status: res.status, refusal: body.refusal, type: body.type, error: body.errors[0] };
};
const urisOf = (playlist: string) => playlist.split("\n").filter((l) => l && !l.startsWith("#"));

async function readyAsset(api: Api, body: Record<string, unknown> = {}) {
  const file = await makeMedia(tmp, "mp4", { seconds: 4, size: "320x240" });
  const requested = await api.post("asset/request-upload", { name: "private video", staticMp4: true, ...body });
  assert.equal(requested.status, 200, JSON.stringify(requested.body));
  assert.equal((await putFile(requested.body.url, file)).status, 200);
  const asset = await settled(api, requested.body.asset.id);
  assert.equal(asset.status.phase, "ready");
  // The MP4 rendition and the seek thumbnails come with the ladder.
  return until(
    "renditions and thumbnails",
    async () => {
      const a = (await api.get(`asset/${asset.id}`)).body;
      return a.renditions?.every((r: { phase: string }) => r.phase === "ready") &&
        (await api.get(`playback/${a.playbackId}`)).body.meta?.source?.some((s: { hrn: string }) => s.hrn === "Thumbnails")
        ? a
        : undefined;
    },
    120_000,
    500,
  );
}

describe("signing keys", () => {
  test("CRUD through the SDK: the private key only in the creation answer", async () => {
    const api = await newAccount();
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const created = (await sdk.accessControl.create()).signingKey!;
    assert.ok(created.id && created.publicKey);
    assert.match(Buffer.from(created.publicKey, "base64").toString(), /^-----BEGIN PUBLIC KEY-----/);
    // The SDK's model keeps no private key; the answer has it, as the SDK sends the request (no body).
    const raw = await call("POST", "access-control/signing-key", { auth: `Bearer ${api.key}` });
    assert.equal(raw.status, 200);
    assert.match(Buffer.from(raw.body.privateKey, "base64").toString(), /^-----BEGIN PRIVATE KEY-----/);

    const listed = (await sdk.accessControl.getAll()).data!;
    assert.deepEqual(listed.map((k) => k.id).sort(), [created.id, raw.body.id].sort());
    assert.equal((await sdk.accessControl.get(raw.body.id)).signingKey!.publicKey, raw.body.publicKey);
    const list = await api.get("access-control/signing-key");
    assert.ok(!JSON.stringify(list.body).includes("privateKey"), "no private key in lists");
    const one = await api.get(`access-control/signing-key/${created.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.privateKey, undefined);
    assert.equal(one.body.disabled, false);

    await sdk.accessControl.update({ name: "renamed", disabled: true }, created.id!);
    const updated = (await sdk.accessControl.get(created.id!)).signingKey!;
    assert.equal(updated.name, "renamed");
    assert.equal(updated.disabled, true);

    const named = await api.post("access-control/signing-key", { name: "second" });
    assert.equal(named.status, 200);
    assert.equal(named.body.name, "second");

    await sdk.accessControl.delete(created.id!);
    assert.equal((await api.get(`access-control/signing-key/${created.id}`)).status, 404);
    // Another user sees none of them.
    const other = await newAccount();
    assert.equal((await other.get(`access-control/signing-key/${named.body.id}`)).status, 404);
    assert.equal((await other.patch(`access-control/signing-key/${named.body.id}`, { disabled: true })).status, 404);
    assert.equal((await other.delete(`access-control/signing-key/${named.body.id}`)).status, 404);
  });

  test("bad input is a 4xx and changes nothing", async () => {
    const api = await newAccount();
    const key = (await api.post("access-control/signing-key")).body;
    const bad = [
      await api.post("access-control/signing-key", { name: "" }),
      await api.post("access-control/signing-key", { name: 5 }),
      await api.post("access-control/signing-key", { privateKey: "mine" }),
      await api.send("POST", "access-control/signing-key", { raw: "{", headers: { "content-type": "application/json" } }),
      await api.patch(`access-control/signing-key/${key.id}`, { disabled: "yes" }),
      await api.patch(`access-control/signing-key/${key.id}`, { publicKey: "x" }),
      await api.patch(`access-control/signing-key/${key.id}`, { name: "x".repeat(101) }),
      await api.get("access-control/signing-key/..%2f..%2fetc"),
      await api.delete("access-control/signing-key/nope"),
    ];
    for (const res of bad) assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
    assert.equal((await api.get("access-control/signing-key")).body.length, 1);
    assert.equal((await api.get(`access-control/signing-key/${key.id}`)).body.disabled, false);
    for (let i = 1; i < 10; i++) assert.equal((await api.post("access-control/signing-key")).status, 200);
    const eleventh = await api.post("access-control/signing-key");
    assert.equal(eleventh.status, 400);
    assert.match(eleventh.body.errors[0], /at most 10/);
  });
});

describe("a JWT-gated asset", () => {
  let api: Api & { cookie: string };
  let asset: { id: string; playbackId: string };
  let key: Key;

  before(async () => {
    api = await newAccount();
    key = (await api.post("access-control/signing-key", { name: "viewers" })).body;
    asset = await readyAsset(api);
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const updated = (await sdk.asset.update({ playbackPolicy: { type: "jwt" as never } }, asset.id)).asset!;
    assert.equal(updated.playbackPolicy?.type, "jwt");
  });

  test("everything of it answers 401 without a token", async () => {
    const urls = [
      `${BASE}/api/playback/${asset.playbackId}`,
      `${BASE}/asset/${asset.playbackId}/hls/index.m3u8`,
      `${BASE}/asset/${asset.playbackId}/hls/source.m3u8`,
      `${BASE}/asset/${asset.playbackId}/hls/seg_0.ts`,
      `${BASE}/asset/${asset.playbackId}/video`,
      `${BASE}/asset/${asset.playbackId}/mp4/240p.mp4`,
      `${BASE}/asset/${asset.playbackId}/thumbnail.jpg`,
      `${BASE}/asset/${asset.playbackId}/thumbnails/thumbnails.vtt`,
      `${BASE}/asset/${asset.playbackId}/thumbnails/sprite_000.jpg`,
    ];
    for (const url of urls) {
      const res = await get(url);
      assert.equal(res.status, 401, url);
      const refused = await refusalOf(res);
      assert.match(refused.error, /private/);
      assert.equal(refused.refusal, "credential-needed", url);
    }
    // The owner's API sees the policy; viewers' playback info says nothing without a token.
    assert.equal((await api.get(`asset/${asset.id}`)).body.playbackPolicy.type, "jwt");
  });

  test("a valid JWT admits to the playback info, whose every URL then works with its short-lived token", async () => {
    const jwt = await jwtFor(key, asset.playbackId);
    const info = await get(`${BASE}/api/playback/${asset.playbackId}?jwt=${jwt}`);
    assert.equal(info.status, 200);
    assert.match(info.headers.get("cache-control")!, /private/);
    const body = (await info.json()) as { meta: { playbackPolicy: { type: string }; source: { hrn: string; url: string }[] } };
    assert.equal(body.meta.playbackPolicy.type, "jwt");
    const sources = body.meta.source;
    assert.deepEqual([...new Set(sources.map((s) => s.hrn))].sort(), ["HLS (TS)", "MP4", "Thumbnail (JPEG)", "Thumbnails"]);
    for (const s of sources) {
      assert.match(s.url, /[?&]tkn=/, s.url);
      assert.ok(!s.url.includes(jwt), "the viewer's JWT is not in the URLs handed out");
      const res = await get(s.url);
      assert.equal(res.status, 200, s.url);
      await res.arrayBuffer();
    }
    // HLS: the master names its playlists with the token, they name their segments with it.
    const hls = sources.find((s) => s.hrn === "HLS (TS)")!.url;
    const master = await (await get(hls)).text();
    const variant = new URL(urisOf(master)[0], hls);
    assert.ok(variant.searchParams.get("tkn"));
    const media = await (await get(variant.toString())).text();
    const segment = new URL(urisOf(media)[0], variant);
    assert.ok(segment.searchParams.get("tkn"));
    const bytes = await get(segment.toString());
    assert.equal(bytes.status, 200);
    assert.ok((await bytes.arrayBuffer()).byteLength > 1000);
    // Without its token, the same segment is refused; with a tampered one, too.
    segment.searchParams.delete("tkn");
    assert.equal((await get(segment.toString())).status, 401);
    segment.searchParams.set(
      "tkn",
      variant.searchParams.get("tkn")!.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
    );
    assert.equal((await get(segment.toString())).status, 403);
    // Seek thumbnails: the sprites the track names carry the token.
    const vttUrl = sources.find((s) => s.hrn === "Thumbnails")!.url;
    const vtt = await (await get(vttUrl)).text();
    const sprite = /^(sprite_\d+\.jpg\?tkn=[^#\s]+)#xywh=/m.exec(vtt)?.[1];
    assert.ok(sprite, vtt.slice(0, 300));
    assert.equal((await get(new URL(sprite!, vttUrl).toString())).status, 200);
  });

  test("the JWT works as the Livepeer-Jwt header, and straight on the HLS URL as a third-party player would use it", async () => {
    const jwt = await joseJwt(key, { sub: asset.playbackId }, Math.floor(Date.now() / 1000) + 60);
    assert.equal((await get(`${BASE}/api/playback/${asset.playbackId}`, { "livepeer-jwt": jwt })).status, 200);
    const master = await get(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8?jwt=${jwt}`);
    assert.equal(master.status, 200);
    assert.ok(urisOf(await master.text()).every((u) => /[?&]tkn=/.test(u)));
    assert.equal((await get(`${BASE}/asset/${asset.playbackId}/video`, { "livepeer-jwt": jwt, range: "bytes=0-99" })).status, 206);
  });

  test("expired, for another playback id, another action, signed by a disabled or another user's key: 403", async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await newAccount();
    const otherKey: Key = (await other.post("access-control/signing-key")).body;
    const disabled: Key = (await api.post("access-control/signing-key", { name: "off" })).body;
    assert.equal((await api.patch(`access-control/signing-key/${disabled.id}`, { disabled: true })).status, 204);
    // Only a JWT whose exp has passed is "expired" (what a player calls an expired link); a bad one is refused.
    const cases: [string, string, RegExp, string][] = [
      ["expired", await joseJwt(key, { sub: asset.playbackId }, now - 5), /expired/, "expired"],
      ["another playback id", await jwtFor(key, "someotherplayback"), /another playback id/, "refused"],
      ["another action", await joseJwt(key, { sub: asset.playbackId, action: "push" }, now + 60), /action/, "refused"],
      ["a disabled key", await jwtFor(disabled, asset.playbackId), /disabled/, "refused"],
      ["another user's key", await jwtFor(otherKey, asset.playbackId), /owner/, "refused"],
      ["garbage", "not.a.jwt", /malformed/, "refused"],
      ["expired, with a forged signature", (await joseJwt(key, { sub: asset.playbackId }, now - 5)).replace(/.{8}$/, "AAAAAAAA"), /signature/, "refused"],
    ];
    for (const [what, jwt, reason, refusal] of cases) {
      const res = await get(`${BASE}/api/playback/${asset.playbackId}?jwt=${encodeURIComponent(jwt)}`);
      const refused = await refusalOf(res);
      assert.deepEqual({ status: refused.status, refusal: refused.refusal, type: refused.type }, { status: 403, refusal, type: "vod" }, what);
      assert.match(refused.error, reason, what);
      assert.equal((await get(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8?jwt=${encodeURIComponent(jwt)}`)).status, 403, what);
    }
    // A key signed with the right private key but naming another public key: not the owner's.
    const forged = await joseJwt({ ...key, publicKey: otherKey.publicKey }, { sub: asset.playbackId }, now + 60);
    assert.equal((await get(`${BASE}/api/playback/${asset.playbackId}?jwt=${forged}`)).status, 403);
    // Enabling the key again admits its tokens at once; lastSeen records the admission.
    assert.equal((await api.patch(`access-control/signing-key/${disabled.id}`, { disabled: false })).status, 204);
    assert.equal((await get(`${BASE}/api/playback/${asset.playbackId}?jwt=${await jwtFor(disabled, asset.playbackId)}`)).status, 200);
    const seen = await until("lastSeen", async () => (await api.get(`access-control/signing-key/${disabled.id}`)).body.lastSeen, 5000);
    assert.ok(Math.abs(seen - Date.now()) < 60_000);
  });

  test("a refusal names what it refuses: a private stream is a stream, not a video", async () => {
    const stream = (await api.post("stream", { name: "private stream", playbackPolicy: { type: "jwt" } })).body;
    const missing = await refusalOf(await get(`${BASE}/api/playback/${stream.playbackId}`));
    assert.deepEqual({ status: missing.status, refusal: missing.refusal, type: missing.type }, { status: 401, refusal: "credential-needed", type: "live" });
    const expired = await refusalOf(
      await get(`${BASE}/api/playback/${stream.playbackId}?jwt=${await joseJwt(key, { sub: stream.playbackId }, Math.floor(Date.now() / 1000) - 5)}`),
    );
    assert.deepEqual({ status: expired.status, refusal: expired.refusal, type: expired.type }, { status: 403, refusal: "expired", type: "live" });
  });

  test("the owner, signed in to the dashboard, watches without a token", async () => {
    assert.equal((await call("GET", `${BASE}/api/playback/${asset.playbackId}`, { cookie: api.cookie })).status, 200);
    const other = await newAccount();
    assert.equal((await call("GET", `${BASE}/api/playback/${asset.playbackId}`, { cookie: other.cookie })).status, 401);
  });

  test("policy changes: bad ones are 422 and change nothing; public again opens it", async () => {
    const bad = [
      { playbackPolicy: { type: "secret" } },
      { playbackPolicy: { type: "webhook" } },
      { playbackPolicy: { type: "webhook", webhookId: "nope" } },
      { playbackPolicy: { type: "jwt", webhookContext: { a: 1 } } },
      { playbackPolicy: { type: "public", allowedOrigins: ["not an origin"] } },
      { playbackPolicy: { type: "public", allowedOrigins: ["https://example.com/path"] } },
      { playbackPolicy: { type: "jwt", extra: true } },
      { name: "" },
      { storage: { ipfs: true } },
    ];
    for (const body of bad) {
      const res = await api.patch(`asset/${asset.id}`, body);
      assert.ok(res.status === 422 || res.status === 400, `${JSON.stringify(body)}: ${res.status}`);
    }
    assert.equal((await api.patch("asset/nonexistent", { name: "x" })).status, 404);
    assert.equal((await api.get(`asset/${asset.id}`)).body.playbackPolicy.type, "jwt");
    // A webhook that does not ask about viewers cannot be a policy's.
    const hook = (await api.post("webhook", { name: "n", url: "http://127.0.0.1:9/x", events: ["asset.ready"] })).body;
    const wrongHook = await api.patch(`asset/${asset.id}`, { playbackPolicy: { type: "webhook", webhookId: hook.id } });
    assert.equal(wrongHook.status, 400);
    assert.match(wrongHook.body.errors[0], /playback\.accessControl/);
  });
});

/** A policy webhook receiver: admits "good", refuses "bad", fails on "down", never answers "slow". */
async function startPolicyReceiver() {
  const asked: { accessKey: string; context: unknown; playbackId: string; signature?: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const json = JSON.parse(body);
      asked.push({ ...json, signature: req.headers["livepeer-signature"] as string });
      if (json.accessKey === "slow") return; // hangs until the test closes it
      if (json.accessKey === "down") return res.writeHead(500).end("database is down");
      res.writeHead(json.accessKey.startsWith("good") ? 200 : 403).end(json.accessKey.startsWith("good") ? "welcome" : "no subscription");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/access`,
    asked,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe("a webhook-gated asset", () => {
  let api: Api;
  let asset: { id: string; playbackId: string };
  let receiver: Awaited<ReturnType<typeof startPolicyReceiver>>;
  let webhookId: string;

  before(async () => {
    api = await newAccount();
    receiver = await startPolicyReceiver();
    webhookId = (await api.post("webhook", { name: "access", url: receiver.url, events: ["playback.accessControl"] })).body.id;
    const requested = await api.post("asset/request-upload", {
      name: "members only",
      playbackPolicy: { type: "webhook", webhookId, webhookContext: { tier: "gold" }, refreshInterval: 2 },
    });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    assert.equal(requested.body.asset.playbackPolicy.type, "webhook");
    assert.equal((await putFile(requested.body.url, await makeMedia(tmp, "mp4", { seconds: 4, size: "320x240" }))).status, 200);
    asset = await settled(api, requested.body.asset.id);
  });
  after(() => receiver.close());

  test("the receiver decides, its answer is cached for refreshInterval, and the derived token expires with it", async () => {
    const info = (key: string) => get(`${BASE}/api/playback/${asset.playbackId}?accessKey=${key}`);
    assert.equal((await get(`${BASE}/api/playback/${asset.playbackId}`)).status, 401);
    const admitted = await info("good-1");
    assert.equal(admitted.status, 200);
    const [asked] = receiver.asked;
    assert.deepEqual(
      { accessKey: asked.accessKey, context: asked.context, playbackId: asked.playbackId },
      { accessKey: "good-1", context: { tier: "gold" }, playbackId: asset.playbackId },
    );
    assert.match(asked.signature!, /^t=\d+,v1=[0-9a-f]{64}$/);
    // Cached: asked again within refreshInterval, the receiver is not.
    assert.equal((await get(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8`, { "livepeer-access-key": "good-1" })).status, 200);
    assert.equal(receiver.asked.length, 1);

    const refused = await refusalOf(await info("bad"));
    assert.deepEqual({ status: refused.status, refusal: refused.refusal, type: refused.type }, { status: 403, refusal: "refused", type: "vod" });
    assert.match(refused.error, /refused/);

    // The segment URLs handed out expire with the admission (refreshInterval: 2 s).
    const hls = ((await admitted.json()) as { meta: { source: { url: string }[] } }).meta.source[0].url;
    const variant = new URL(urisOf(await (await get(hls)).text())[0], hls);
    const segment = new URL(urisOf(await (await get(variant.toString())).text())[0], variant).toString();
    assert.equal((await get(segment)).status, 200);
    await sleep(3100);
    const expired = await get(segment);
    assert.equal(expired.status, 403);
    assert.match(await errorOf(expired), /expired/);
    // After refreshInterval the receiver is asked again.
    assert.equal((await info("good-1")).status, 200);
    assert.equal(receiver.asked.filter((a) => a.accessKey === "good-1").length, 2);
  });

  test("a receiver that fails or does not answer is no refusal: the access check is unavailable, quickly", async () => {
    const started = Date.now();
    const slow = await get(`${BASE}/api/playback/${asset.playbackId}?accessKey=slow`);
    assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
    const down = await get(`${BASE}/api/playback/${asset.playbackId}?accessKey=down`);
    for (const [res, detail] of [
      [slow, /in time/],
      [down, /answered 500/],
    ] as const) {
      assert.equal(res.headers.get("retry-after"), "5");
      const refused = await refusalOf(res);
      assert.deepEqual({ status: refused.status, refusal: refused.refusal, type: refused.type }, { status: 503, refusal: "check-unavailable", type: "vod" });
      assert.match(refused.error, /access check is unavailable/);
      assert.match(refused.error, detail);
      assert.doesNotMatch(refused.error, /expired|refused/);
    }
  });

  test("every access check is in the webhook's delivery log, with its answer and time but not the viewer's access key", async () => {
    const key = `good-logged-${Date.now()}`;
    const fingerprint = `sha256:${createHash("sha256").update(key).digest("hex").slice(0, 12)}`;
    assert.equal((await get(`${BASE}/api/playback/${asset.playbackId}?accessKey=${key}`)).status, 200);
    assert.equal((await get(`${BASE}/api/playback/${asset.playbackId}?accessKey=down`)).status, 503);
    const log = await until(
      "both checks logged",
      async () => {
        const deliveries = (await api.get(`webhook/${webhookId}/log`)).body as {
          id: string;
          event: string;
          request: { body: string; headers: Record<string, string> };
          response?: { status: number; body: string };
          durationMs: number;
          success: boolean;
          error?: string;
        }[];
        const admitted = deliveries.find(
          (d) => JSON.parse(d.request.body).accessKey === fingerprint && d.response?.status === 200 && d.response.body === "welcome",
        );
        const failed = deliveries.find((d) => d.response?.status === 500);
        return admitted && failed && { admitted, failed, all: deliveries };
      },
      20_000,
      250,
    );
    for (const d of log.all) {
      assert.equal(d.event, "playback.accessControl");
      assert.ok(!JSON.stringify(d).includes(key) && !JSON.stringify(d).includes("good-1"), "no access key in the log");
      const question = JSON.parse(d.request.body);
      assert.match(question.accessKey, /^sha256:[0-9a-f]{12}$/);
      assert.deepEqual([question.playbackId, question.context], [asset.playbackId, { tier: "gold" }]);
      assert.match(d.request.headers["livepeer-signature"], /^t=\d+,v1=[0-9a-f]{64}$/);
    }
    assert.equal(log.admitted.success, true);
    assert.ok(log.admitted.durationMs > 0);
    assert.deepEqual(
      { success: log.failed.success, error: log.failed.error, body: log.failed.response?.body },
      { success: false, error: "receiver answered 500", body: "database is down" },
    );
    // A refusal is an answer: the check worked.
    assert.ok(log.all.some((d) => d.response?.status === 403 && d.success && d.response.body === "no subscription"));
    // Asked for a viewer then, an access check is not sent again.
    const resend = await api.post(`webhook/${webhookId}/log/${log.admitted.id}/resend`, {});
    assert.equal(resend.status, 400);
    assert.match(resend.body.errors[0], /cannot be resent/);
  });
});

/** The embed grant a player page carries, as any program reading the page's HTML finds it. */
const embedGrantIn = (html: string) => /embedGrant\\?":\\?"([0-9a-z]+\.[\w-]{22})/.exec(html)?.[1];

describe("allowed origins", () => {
  let api: Api & { cookie: string };
  let asset: { id: string; playbackId: string };
  let info: string;

  /** A public video that plays only on https://good.example. */
  async function embeddedVideo() {
    const requested = await api.post("asset/request-upload", {
      name: "embedded",
      playbackPolicy: { type: "public", allowedOrigins: ["https://good.example"] },
    });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    assert.equal((await putFile(requested.body.url, await makeMedia(tmp, "mp4", { seconds: 2, size: "320x240" }))).status, 200);
    return settled(api, requested.body.asset.id);
  }

  before(async () => {
    api = await newAccount();
    asset = await embeddedVideo();
    info = `${BASE}/api/playback/${asset.playbackId}`;
  });

  test("a public asset playable only from its allowed origins answers CORS for them", async () => {
    const good = await get(info, { origin: "https://good.example" });
    assert.equal(good.status, 200);
    assert.equal(good.headers.get("access-control-allow-origin"), "https://good.example");
    assert.match(good.headers.get("vary") ?? "", /Origin/);
    const evil = await get(info, { origin: "https://evil.example" });
    assert.equal(evil.status, 403);
    assert.match(await errorOf(evil), /evil\.example/);
    assert.equal((await get(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8`, { referer: "https://evil.example/page" })).status, 403);
    assert.equal((await get(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8`, { referer: "https://good.example/page" })).status, 200);
    // Preflights let players send the viewer's credentials.
    const preflight = await fetch(info, { method: "OPTIONS", headers: { origin: "https://good.example", "access-control-request-headers": "livepeer-jwt" } });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get("access-control-allow-headers")!, /livepeer-jwt/);
  });

  test("a request naming no allowed page is refused: no Origin and no Referer, Origin: null, this site's own pages without proof", async () => {
    const media = [
      info,
      `${BASE}/asset/${asset.playbackId}/hls/index.m3u8`,
      `${BASE}/asset/${asset.playbackId}/video`,
      `${BASE}/asset/${asset.playbackId}/thumbnail.jpg`,
    ];
    const cases: [string, Record<string, string>, RegExp][] = [
      // an <img referrerpolicy="no-referrer">, a page with <meta name="referrer" content="no-referrer">
      ["no Origin, no Referer", {}, /names no site/],
      // a sandboxed frame, a data: URL
      ["Origin: null", { origin: "null" }, /Origin: null/],
      ["Origin: null with an allowed Referer", { origin: "null", referer: "https://good.example/" }, /Origin: null/],
      // the player page, framed by a no-referrer or sandboxed frame of any site, without its grant
      ["this site's own page", { referer: `${BASE}/play/${asset.playbackId}` }, /names no site/],
      ["a Referer that is no URL", { referer: "nonsense" }, /names no site/],
    ];
    for (const [what, headers, reason] of cases) {
      for (const url of media) {
        const res = await get(url, headers);
        assert.equal(res.status, 403, `${what}: ${url}`);
        assert.match(await errorOf(res), reason, `${what}: ${url}`);
      }
    }
    // The owner, signed in to the dashboard, watches their own video there.
    assert.equal((await call("GET", info, { cookie: api.cookie, headers: { referer: `${BASE}/assets/${asset.id}` } })).status, 200);
    const other = await newAccount();
    assert.equal((await call("GET", info, { cookie: other.cookie, headers: { referer: `${BASE}/assets/${asset.id}` } })).status, 403);
  });

  test("an allowed page's admission hands out URLs whose playback token stands in for the page, and for that content only", async () => {
    const admitted = await get(info, { origin: "https://good.example" });
    const sources = ((await admitted.json()) as { meta: { source: { hrn: string; url: string }[] } }).meta.source;
    assert.match(admitted.headers.get("cache-control")!, /private/);
    for (const s of sources) {
      assert.match(s.url, /[?&]tkn=/, s.url);
      // A media element of the embedding page may send neither Origin nor Referer.
      const res = await get(s.url);
      assert.equal(res.status, 200, s.url);
      // Made for one page: a browser's cache (shared by sites under one domain) must not give it to another.
      assert.match(res.headers.get("vary") ?? "", /\bOrigin, Referer\b/, s.url);
      assert.match(res.headers.get("cache-control") ?? "", /private/, s.url);
      await res.arrayBuffer();
    }
    const hls = sources.find((s) => s.hrn === "HLS (TS)")!.url;
    const variant = new URL(urisOf(await (await get(hls)).text())[0], hls);
    assert.ok(variant.searchParams.get("tkn"), "the playlists name their files with it");
    assert.equal((await get(variant.toString())).status, 200);
    // Another site with the token is still another site; an opaque page too.
    assert.equal((await get(hls, { origin: "https://evil.example" })).status, 403);
    assert.equal((await get(hls, { referer: "https://evil.example/" })).status, 403);
    assert.equal((await get(hls, { origin: "null" })).status, 403);
    const tampered = new URL(hls);
    tampered.searchParams.set(
      "tkn",
      tampered.searchParams.get("tkn")!.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
    );
    assert.equal((await get(tampered.toString())).status, 403);
  });

  test("the player page plays only framed by an allowed site, and its embed grant proves that to the playback info", async () => {
    const page = (headers: Record<string, string>) => get(`${BASE}/play/${asset.playbackId}`, headers);
    const refusal = /this content may not be played|plays only on the sites its owner allows/i;
    for (const [what, headers] of [
      ["another site", { referer: "https://evil.example/article" }],
      ["no Referer (a no-referrer frame, the page opened directly)", {}],
      ["this site's own page", { referer: `${BASE}/` }],
    ] as const) {
      const html = await (await page(headers)).text();
      assert.match(html, refusal, what);
      assert.equal(embedGrantIn(html), undefined, what);
    }
    const framed = await page({ referer: "https://good.example/article" });
    assert.match(framed.headers.get("cache-control") ?? "", /no-store|private/, "the page and its grant are not for shared caches");
    const html = await framed.text();
    assert.doesNotMatch(html, refusal);
    const grant = embedGrantIn(html);
    assert.ok(grant, "the framed page carries an embed grant");

    // The player's own requests name this site: the grant stands in for the embedding page.
    const fromPlayer = { referer: `${BASE}/play/${asset.playbackId}` };
    const played = await get(info, { ...fromPlayer, "castline-embed-grant": grant! });
    assert.equal(played.status, 200);
    const hls = ((await played.json()) as { meta: { source: { url: string }[] } }).meta.source[0].url;
    assert.match(hls, /tkn=/);
    assert.equal((await get(hls, fromPlayer)).status, 200);
    // Framed (by way of an allowed page) by another site, as the browser tells: refused.
    const nested = await get(info, { ...fromPlayer, "castline-embed-grant": grant!, "castline-embedders": "https://good.example https://evil.example" });
    assert.equal(nested.status, 403);
    assert.match(await errorOf(nested), /evil\.example/);
    assert.equal((await get(info, { ...fromPlayer, "castline-embed-grant": grant!, "castline-embedders": "null" })).status, 403);
    assert.equal((await get(info, { ...fromPlayer, "castline-embed-grant": grant!, "castline-embedders": "https://good.example" })).status, 200);
    // The grant is no playback token, names this video only, and cannot be forged; another site's page is refused with it.
    assert.equal((await get(`${BASE}/asset/${asset.playbackId}/hls/index.m3u8?tkn=${grant}`)).status, 403);
    assert.equal((await get(info, { "castline-embed-grant": grant!.replace(/.$/, (c) => (c === "A" ? "B" : "A")) })).status, 403);
    assert.equal((await get(info, { origin: "https://evil.example", "castline-embed-grant": grant! })).status, 403);
    assert.equal((await get(info, { origin: "null", "castline-embed-grant": grant! })).status, 403);
    const otherVideo = await embeddedVideo();
    assert.equal((await get(`${BASE}/api/playback/${otherVideo.playbackId}`, { ...fromPlayer, "castline-embed-grant": grant! })).status, 403);
  });
});

describe("a JWT-gated live stream and its recording", { concurrency: false }, () => {
  test("live HLS and the recording refuse viewers without a token and play with one; the recording keeps its own policy on every path", async () => {
    const api = await newAccount();
    const key: Key = (await api.post("access-control/signing-key")).body;
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    const stream = (await sdk.stream.create({ name: "members stream", record: true, playbackPolicy: { type: "jwt" as never } })).stream!;
    assert.equal(stream.playbackPolicy?.type, "jwt");
    const jwt = await jwtFor(key as Key, stream.playbackId!);
    const broadcaster = publish(rtmpUrl(stream.streamKey!), { seconds: 14 });
    try {
      await streamActive(api, stream.id!);
      assert.equal((await get(`${BASE}/api/playback/${stream.playbackId}`)).status, 401);
      assert.equal((await get(`${BASE}/hls/${stream.playbackId}/index.m3u8`)).status, 401);
      const info = await until("live playback info", async () => {
        const body = (await (await get(`${BASE}/api/playback/${stream.playbackId}?jwt=${jwt}`)).json()) as {
          meta: { live: number; source: { url: string }[] };
        };
        return body.meta.live === 1 ? body : undefined;
      });
      const hls = info.meta.source[0].url;
      assert.match(hls, /tkn=/);
      const variant = new URL(urisOf(await (await get(hls)).text())[0], hls);
      assert.ok(variant.searchParams.get("tkn"));
      const media = await until("a live segment", async () => urisOf(await (await get(variant.toString())).text())[0]);
      const segment = new URL(media, variant);
      assert.ok(segment.searchParams.get("tkn"));
      assert.equal((await get(segment.toString())).status, 200);
      segment.searchParams.delete("tkn");
      assert.equal((await get(segment.toString())).status, 401);
      variant.searchParams.delete("tkn");
      assert.equal((await get(variant.toString())).status, 401);
    } finally {
      await broadcaster.stop();
    }
    await streamIdle(api, stream.id!);
    // The stream goes public for what comes next, while this broadcast's recording waits for a
    // reconnect or is being processed: the recording stays as private as its broadcast was.
    assert.equal((await api.patch(`stream/${stream.id}`, { playbackPolicy: null })).status, 204);
    assert.equal((await get(`${BASE}/api/playback/${stream.playbackId}`)).status, 200, "the stream itself is public now");
    const [ended] = (await api.get(`stream/${stream.id}/sessions?record=1`)).body;
    const recording = `${BASE}/recordings/${ended.id}/index.m3u8`;
    assert.equal((await get(recording)).status, 401, `the recording (${ended.recordingStatus}) is not opened by the stream's new policy`);

    const session = await until(
      "the recorded session",
      async () => {
        const [s] = (await api.get(`stream/${stream.id}/sessions?record=1`)).body;
        return s?.recordingStatus === "ready" ? s : undefined;
      },
      90_000,
      500,
    );
    const recorded = (await api.get("asset")).body.find((a: { source: { sessionId?: string } }) => a.source.sessionId === session.id);
    const asset = await settled(api, recorded.id);
    assert.equal(asset.playbackPolicy?.type, "jwt", "the recording's asset inherits its broadcast's policy, not the stream's of now");

    const playlist = await get(`${recording}?jwt=${jwt}`);
    assert.equal(playlist.status, 200, "a JWT for the stream's playback id");
    const first = new URL(urisOf(await playlist.text())[0], recording);
    assert.ok(first.searchParams.get("tkn"));
    assert.equal((await get(first.toString())).status, 200);
    first.searchParams.delete("tkn");
    const recordingPaths = [recording, first.toString(), `${BASE}/recordings/${session.id}/video.mp4`];
    const assetPaths = [
      `${BASE}/api/playback/${asset.playbackId}`,
      `${BASE}/asset/${asset.playbackId}/hls/index.m3u8`,
      `${BASE}/asset/${asset.playbackId}/video`,
    ];
    const statuses = async (urls: string[]) => Promise.all(urls.map(async (url) => (await get(url, { range: "bytes=0-99" })).status));
    assert.deepEqual(await statuses(recordingPaths), [401, 401, 401], "the recording's paths refuse as its asset's do");
    assert.deepEqual(await statuses(assetPaths), [401, 401, 401]);
    assert.equal((await get(`${recording}?jwt=${await jwtFor(key, asset.playbackId)}`)).status, 200, "a JWT for the asset's playback id");
    // A playback token of the live stream (now public: none) or of another content opens nothing here.
    const assetToken = new URL(
      (
        (await (await get(`${BASE}/api/playback/${asset.playbackId}?jwt=${await jwtFor(key, asset.playbackId)}`)).json()) as {
          meta: { source: { url: string }[] };
        }
      ).meta.source[0].url,
    ).searchParams.get("tkn")!;
    assert.equal((await get(`${recording}?tkn=${assetToken}`)).status, 403);

    // The asset made public: one content, one policy, so its recording's paths play too.
    assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy: null })).status, 200);
    assert.deepEqual(await statuses(recordingPaths), [200, 206, 206]);
    assert.deepEqual(await statuses(assetPaths), [200, 200, 206]);
    // And private again.
    assert.equal((await api.patch(`asset/${asset.id}`, { playbackPolicy: { type: "jwt" } })).status, 200);
    assert.deepEqual(await statuses(recordingPaths), [401, 401, 401]);
  });
});
