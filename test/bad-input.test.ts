import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import { BASE, newAccount } from "./support/client";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

/** Whatever a client sends, the answer is a clear 4xx, never a 5xx, and nothing changes. */
const BODIES: { raw: string; type?: string }[] = [
  { raw: "{" },
  { raw: "" },
  { raw: "null" },
  { raw: "[]" },
  { raw: '"a string"' },
  { raw: "123" },
  { raw: '{"name": {"$gt": ""}}' },
  { raw: '{"name": "x", "profiles": [null]}' },
  { raw: '{"record": null, "suspended": 1, "multistream": {"targets": [{}]}}' },
  { raw: '{"url": "rtmp://\u0000"}' },
  { raw: '{"name": "a\\u0000b", "url": "rtmp://a\\u0000b/x", "email": "a\\u0000@b.co", "password": "12345678\\u0000"}' },
  { raw: JSON.stringify({ name: "x".repeat(10_000) }) },
  { raw: `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}` },
  { raw: "name=x", type: "application/x-www-form-urlencoded" },
  { raw: JSON.stringify({ name: "x" }), type: "text/plain" },
  { raw: `{"name":"${"y".repeat(1_100_000)}"}` },
];

const ID_LIKE = ["x", "%00", "..%2F..%2Fetc", "a".repeat(3000), "' OR 1=1 --", "😀"];

describe("bad input", () => {
  test("every endpoint answers malformed bodies, odd ids and odd queries with a 4xx and an errors array", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "s" })).body;
    const target = (await api.post("multistream/target", { url: "rtmp://a.example.com/x" })).body;
    const webhook = (await api.post("webhook", { name: "w", url: "https://e.example.com", events: ["stream.idle"] })).body;
    const { asset } = (await api.post("asset/request-upload", { name: "a" })).body;
    const signingKey = (await api.post("access-control/signing-key", { name: "k" })).body;

    const withBody: [string, string][] = [
      ["POST", "stream"],
      ["PATCH", `stream/${stream.id}`],
      ["PATCH", `stream/${stream.id}/record`],
      ["POST", "multistream/target"],
      ["PATCH", `multistream/target/${target.id}`],
      ["POST", "webhook"],
      ["PUT", `webhook/${webhook.id}`],
      ["POST", "api-key"],
      ["POST", "user"],
      ["POST", "asset/request-upload"],
      ["POST", "asset/import"],
      ["POST", `asset/${asset.id}/export`],
      ["PATCH", `asset/${asset.id}`],
      ["POST", "access-control/signing-key"],
      ["PATCH", `access-control/signing-key/${signingKey.id}`],
    ];
    for (const [method, path] of withBody) {
      for (const { raw, type } of BODIES) {
        // The SDK creates signing keys with no body at all: that one is a creation.
        if (path === "access-control/signing-key" && raw === "") continue;
        const res = await api.send(method, path, { raw, headers: type ? { "content-type": type } : {} });
        const label = `${method} ${path} ${raw.slice(0, 40)}`;
        assert.ok(res.status >= 400 && res.status < 500, `${label}: ${res.status}`);
        assert.ok(Array.isArray(res.body?.errors) && res.body.errors.every((e: unknown) => typeof e === "string"), label);
      }
    }

    const byId = [
      "stream/ID",
      "stream/ID/sessions",
      "session/ID",
      "session/ID/health",
      "multistream/target/ID",
      "webhook/ID",
      "asset/ID",
      "task/ID",
      "access-control/signing-key/ID",
    ];
    for (const path of byId) {
      for (const id of ID_LIKE) {
        const res = await api.get(path.replace("ID", id));
        assert.ok(res.status === 404 || res.status === 400, `${path} ${id.slice(0, 20)}: ${res.status}`);
      }
    }

    for (const query of [
      "limit=-1",
      "limit=1e9",
      "limit=",
      "cursor=%FF%FE",
      `cursor=${Buffer.from("1:\u0000").toString("base64url")}`,
      "cursor=" + "A".repeat(5000),
      "filters=%7B%7D",
      "filters=[1]",
      "streamsonly=maybe",
    ]) {
      for (const list of ["stream", "session", "multistream/target", "webhook", "asset", "task"]) {
        const res = await api.get(`${list}?${query}`);
        assert.ok(res.status < 500, `${list}?${query.slice(0, 30)}: ${res.status}`);
      }
    }

    const after = (await api.get(`stream/${stream.id}`)).body;
    assert.deepEqual(after, stream, "nothing changed");
    assert.equal((await api.get(`asset/${asset.id}`)).body.name, "a");
    assert.deepEqual(
      (await api.get("access-control/signing-key")).body,
      [signingKey].map(({ privateKey: _, ...k }) => k),
    );
  });

  test("paths that are not valid percent-encoded UTF-8 get a 400, not a 500", async () => {
    const api = await newAccount();
    const paths = [
      "/api/stream/%ff",
      "/api/asset/%ff",
      "/api/webhook/%c3",
      "/hls/%ff/x",
      "/ipfs/%ff",
      "/play/%ff",
      "/api/playback/%ff",
      "/asset/%ff/video",
      "/api/stream/%e0%80",
      "/streams/%ff",
    ];
    for (const path of paths) {
      const res = await fetch(new URL(path, BASE), { headers: { authorization: `Bearer ${api.key}` } });
      assert.equal(res.status, 400, path);
      assert.match((await res.json()).errors[0], /percent-encoded/, path);
    }
  });

  test("range filters with fractions of a millisecond or numbers past what a column holds are a 422 naming the filter", async () => {
    const api = await newAccount();
    const filters = (id: string, value: unknown) => `filters=${encodeURIComponent(JSON.stringify([{ id, value }]))}`;
    const odd = [{ gt: 1.5 }, { gt: 1e19 }, { lt: 1e308 }, { gt: -1 }];
    for (const [list, ids] of [
      ["stream", ["createdAt", "lastSeen"]],
      ["asset", ["createdAt", "videoSpec.duration"]],
    ] as const) {
      for (const id of ids) {
        for (const value of odd) {
          if (id === "videoSpec.duration" && value.gt === 1.5) continue; // seconds: fractions are fine
          const res = await api.get(`${list}?${filters(id, value)}`);
          assert.equal(res.status, 422, `${list} ${id} ${JSON.stringify(value)}: ${res.status} ${JSON.stringify(res.body)}`);
          assert.match(res.body.errors[0], /^filters\.0\.value\.(gt|lt): /, JSON.stringify(res.body));
        }
      }
    }
    assert.match((await api.get(`stream?${filters("createdAt", { gt: 1.5 })}`)).body.errors[0], /whole number of milliseconds/);
    for (const [list, id, value] of [
      ["stream", "createdAt", { gt: 0, lt: Date.now() + 1000 }],
      ["asset", "videoSpec.duration", { gt: 1.5, lt: 1e6 }],
    ] as const) {
      assert.equal((await api.get(`${list}?${filters(id, value)}`)).status, 200, `${list} ${id}`);
    }
  });

  test("TRACE (and any method served nowhere) is a 501 that echoes nothing of the request, on every path", async () => {
    const secret = "a-header-value-that-must-not-come-back";
    for (const pathname of ["/api/stream", "/api/nowhere", "/streams", "/", "/hls/x/index.m3u8", "/api/auth/session"]) {
      for (const method of ["TRACE", "PROPFIND"]) {
        const res = await new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
          const req = http.request(new URL(pathname, BASE), { method, headers: { "x-probe": secret, cookie: `probe=${secret}` } }, (res) => {
            let text = "";
            res.setEncoding("utf8").on("data", (d) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), text }));
          });
          req.on("error", reject);
          req.end();
        });
        assert.equal(res.status, 501, `${method} ${pathname}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.match(res.type, /^application\/json/);
        assert.match(JSON.parse(res.text).errors[0], /not supported/);
        assert.ok(!res.text.includes(secret) && !res.text.includes("x-probe"), "nothing of the request comes back");
      }
    }
  });

  test("an /api path that names no operation is the JSON not-found of the API, whatever the method", async () => {
    const api = await newAccount();
    for (const [method, pathname] of [
      ["GET", "/api/nowhere"],
      ["GET", "/api"],
      ["POST", "/api/stream/x/y/z"],
      ["DELETE", "/api/no/such/thing"],
      ["PATCH", "/api/streams"],
    ]) {
      const res = await api.send(method, pathname, { raw: method === "GET" ? undefined : "{}" });
      assert.equal(res.status, 404, `${method} ${pathname}`);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `${method} ${pathname}`);
      assert.deepEqual(res.body, { errors: ["not found"] }, `${method} ${pathname}`);
    }
    assert.equal((await api.get("stream")).status, 200, "operations still answer");
    assert.equal((await fetch(new URL("/no-such-page", BASE))).headers.get("content-type")?.startsWith("text/html"), true, "pages keep the HTML not-found");
  });

  test("free-form JSON nested too deep, or too big, is a 422 and starts nothing", async () => {
    const api = await newAccount();
    const tmp = tmpDir();
    const { url, asset } = (await api.post("asset/request-upload", { name: "deep" })).body;
    assert.equal((await putFile(url, await makeMedia(tmp, "mp4", { seconds: 1 }))).status, 200);
    assert.equal((await settled(api, asset.id)).status.phase, "ready");
    const deep = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])));
    for (const metadata of [deep, wide]) {
      const res = await api.send("POST", `asset/${asset.id}/export`, { raw: `{"ipfs":{"nftMetadata":${metadata}}}` });
      assert.equal(res.status, 422);
      assert.match(res.body.errors[0], /ipfs\.nftMetadata: must not (nest deeper than 32 levels|hold more than 10000 values)/);
    }
    const ok = await api.post(`asset/${asset.id}/export`, { ipfs: { nftMetadata: { a: { b: { c: [1, 2, { d: "e" }] } } } } });
    assert.equal(ok.status, 201, "ordinary metadata still passes");
    assert.equal((await api.get("task")).body.filter((t: { type: string }) => t.type === "export").length, 1, "only the valid export started");
  });
});
