import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { before, describe, test } from "node:test";
import { Api, BASE, call, newAccount } from "./support/client";

/**
 * CORS-enabled API keys (allowedOrigins), the suite's own rate-limit headers and client
 * address, and common passwords, against the suite's app.
 */
const SHOP = "https://shop.example";

describe("CORS-enabled API keys", () => {
  let owner: Awaited<ReturnType<typeof newAccount>>;
  let web: Api;
  before(async () => {
    owner = await newAccount();
    const created = await owner.post("api-key", { name: "shop page", allowedOrigins: [SHOP, "http://localhost:8080/"] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.allowedOrigins, [SHOP, "http://localhost:8080"], "normalised as browsers send the Origin");
    web = new Api(created.body.key, owner.email);
  });

  test("the key objects show their origins; keys without none", async () => {
    const keys = (await owner.get("api-key")).body as { name: string; allowedOrigins?: string[] }[];
    assert.deepEqual(keys.find((k) => k.name === "shop page")?.allowedOrigins, [SHOP, "http://localhost:8080"]);
    assert.equal(keys.find((k) => k.name === "tests")?.allowedOrigins, undefined);
  });

  test("a page on an allowed origin creates upload URLs, with CORS headers naming it, after a preflight", async () => {
    const preflight = await call("OPTIONS", "asset/request-upload", {
      headers: { origin: SHOP, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), SHOP);
    assert.match(preflight.headers.get("access-control-allow-methods")!, /POST/);
    assert.match(preflight.headers.get("access-control-allow-headers")!, /authorization/);
    assert.match(preflight.headers.get("access-control-allow-headers")!, /content-type/);

    const res = await web.send("POST", "asset/request-upload", { body: { name: "from the shop" }, headers: { origin: SHOP } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.url && res.body.asset.id);
    assert.equal(res.headers.get("access-control-allow-origin"), SHOP);
    assert.match(res.headers.get("vary") ?? "", /origin/i);
    assert.match(res.headers.get("access-control-expose-headers") ?? "", /ratelimit-remaining/);
    // and it reads playback info, public anyway
    assert.equal((await web.send("GET", `playback/${randomUUID()}`, { headers: { origin: SHOP } })).status, 404);
  });

  test("the key does nothing else, from its origin or from a server, and nothing from another origin", async () => {
    const fromShop = await web.send("GET", "stream", { headers: { origin: SHOP } });
    assert.equal(fromShop.status, 403);
    assert.match(fromShop.body.errors[0], /may only create upload URLs/);
    assert.equal((await web.get("asset")).status, 403, "copied out of the page and used without an Origin: still only uploads");
    assert.equal((await web.post("asset/request-upload", { name: "server side" })).status, 200);

    const foreign = await web.send("POST", "asset/request-upload", { body: { name: "x" }, headers: { origin: "https://evil.example" } });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body.errors[0], /allowedOrigins only, not from https:\/\/evil\.example/);
  });

  test("a key without origins is refused from any web page but the dashboard's; servers (no Origin) are unaffected", async () => {
    const foreign = await owner.send("GET", "stream", { headers: { origin: "https://evil.example" } });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body.errors[0], /may not be used from the web page origin https:\/\/evil\.example/);
    assert.equal((await owner.send("POST", "asset/request-upload", { body: { name: "x" }, headers: { origin: SHOP } })).status, 403);
    assert.equal((await owner.send("GET", "stream", { headers: { origin: new URL(BASE).origin } })).status, 200, "the dashboard's own origin");
    assert.equal((await owner.get("stream")).status, 200);
    assert.equal((await owner.post("asset/request-upload", { name: "sdk" })).status, 200);
  });

  test("bad allowedOrigins are 422, never a 5xx", async () => {
    const bad = [
      ["example.com"],
      ["https://example.com/path"],
      ["javascript:alert(1)"],
      ["https://example.com", 5],
      [],
      "https://example.com",
      { a: 1 },
      Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
      ["https://" + "a".repeat(300) + ".example"],
      ["null"],
    ];
    for (const allowedOrigins of bad) {
      const res = await owner.post("api-key", { name: "bad", allowedOrigins });
      assert.equal(res.status, 422, `${JSON.stringify(allowedOrigins).slice(0, 60)}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.match(res.body.errors[0], /^allowedOrigins/);
    }
  });
});

describe("the suite's app: limits counted, client address from the connection", () => {
  test("ordinary answers, success and error, carry the RateLimit headers; playback paths theirs", async () => {
    const api = await newAccount();
    for (const res of [
      await api.get("stream"),
      await api.get(`stream/${randomUUID()}`),
      await call("GET", "stream"),
      await call("GET", "/hls/nope/index.m3u8"),
      await call("GET", "playback/nope"),
    ]) {
      assert.equal(res.headers.get("ratelimit-limit"), "1000000", `${res.status}`);
      assert.ok(Number(res.headers.get("ratelimit-remaining")) < 1000000);
      assert.ok(Number(res.headers.get("ratelimit-reset")) >= 1);
    }
  });

  test("without a trusted proxy, a client's X-Forwarded-For does not change whose count it is", async () => {
    const first = await call("GET", "health", { headers: { "x-forwarded-for": "203.0.113.1" } });
    const second = await call("GET", "health", { headers: { "x-forwarded-for": "203.0.113.2" } });
    assert.ok(Number(second.headers.get("ratelimit-remaining")) < Number(first.headers.get("ratelimit-remaining")), "one counter: the connection's address");
  });
});

describe("common passwords", () => {
  test("sign-up with one of the most common passwords is a 422 that says so; the length rule stays", async () => {
    for (const password of ["password1", "Qwertyuiop", "iloveyou123"]) {
      const res = await call("POST", "user", { body: { email: `common-${randomUUID()}@example.com`, password } });
      assert.equal(res.status, 422, password);
      assert.match(res.body.errors[0], /^password: is one of the most common passwords/);
    }
    const short = await call("POST", "user", { body: { email: `short-${randomUUID()}@example.com`, password: "Xy7#q" } });
    assert.equal(short.status, 422);
    assert.match(short.body.errors[0], /at least 8 characters/);
  });
});
