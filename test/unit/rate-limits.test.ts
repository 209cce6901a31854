import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiKeyCreate } from "@/lib/api-keys/schema";
import { addressSubject, clientAddress } from "@/lib/rate-limits/address";
import { isPlaybackPath } from "@/lib/rate-limits/playback";
import { quotaHeaders, quotaOf, tightest } from "@/lib/rate-limits/store";
import { Password } from "@/lib/users/schema";

describe("the client's address", () => {
  test("without trusted proxies it is the connection's peer, whatever X-Forwarded-For says", () => {
    assert.equal(clientAddress("203.0.113.7", "1.2.3.4", 0), "203.0.113.7");
    assert.equal(clientAddress("::ffff:203.0.113.7", undefined, 0), "203.0.113.7");
  });

  test("behind n trusted proxies it is the n-th address from the right; what the client wrote left of it is never read", () => {
    // The client sent "1.2.3.4"; the proxy appended the address it saw.
    assert.equal(clientAddress("10.0.0.2", "1.2.3.4, 198.51.100.9", 1), "198.51.100.9");
    assert.equal(clientAddress("10.0.0.2", ["1.2.3.4, 198.51.100.9", "10.0.0.1"], 2), "198.51.100.9");
    assert.equal(clientAddress("10.0.0.2", undefined, 1), "10.0.0.2", "no header: the peer");
    assert.equal(clientAddress("10.0.0.2", "1.2.3.4, not-an-address", 1), "10.0.0.2", "junk from the proxy: the peer");
  });

  test("IPv6 addresses are counted by their /64", () => {
    assert.equal(addressSubject("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
    assert.equal(addressSubject("2001:0db8:0001:0002:ffff:1:2:3"), "2001:db8:1:2::/64");
    assert.equal(addressSubject("2001:db8::5"), "2001:db8:0:0::/64");
    assert.equal(addressSubject("::1"), "0:0:0:0::/64");
    assert.equal(addressSubject("198.51.100.9"), "198.51.100.9");
  });
});

describe("quotas", () => {
  const limit = { name: "API key", perMinute: 3 };
  test("remaining, reset and exceeded follow the count and the window", () => {
    const start = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    assert.deepEqual(quotaOf(limit, 3, start, start + 15_500), { limit: 3, remaining: 0, resetS: 45, exceeded: false, name: "API key" });
    assert.equal(quotaOf(limit, 4, start, start).exceeded, true);
    assert.deepEqual(quotaHeaders(quotaOf(limit, 4, start, start + 59_900)), {
      "ratelimit-limit": "3",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "1",
      "retry-after": "1",
    });
  });

  test("the tightest quota is an exceeded one, else the one with least remaining", () => {
    const a = quotaOf({ name: "a", perMinute: 100 }, 10, 0, 0);
    const b = quotaOf({ name: "b", perMinute: 20 }, 10, 0, 0);
    const c = quotaOf({ name: "c", perMinute: 5 }, 6, 0, 0);
    assert.equal(tightest([a, b])?.name, "b");
    assert.equal(tightest([c, a, b])?.name, "c");
    assert.equal(tightest([undefined, a])?.name, "a");
    assert.equal(tightest([]), undefined);
  });

  test("playback paths are the media a player fetches, not the rest of the API", () => {
    for (const p of ["/hls/abc/index.m3u8", "/asset/abc/video", "/recordings/s1/0.ts", "/api/playback/abc"]) assert.ok(isPlaybackPath(p), p);
    for (const p of ["/api/asset/request-upload", "/api/stream", "/play/abc", "/assets", "/hlsx/a"]) assert.ok(!isPlaybackPath(p), p);
  });
});

describe("passwords and key origins", () => {
  test("common passwords are refused, in any letter case; others of 8 characters or more pass", async () => {
    for (const p of ["password", "Password1", "QWERTYUIOP", "iloveyou1", "12345678"]) {
      const r = await Password.safeParseAsync(p);
      assert.ok(!r.success && /most common passwords/.test(r.error.issues[0].message), p);
    }
    for (const p of ["correct horse battery", "long enough!"]) assert.ok((await Password.safeParseAsync(p)).success, p);
  });

  test("allowedOrigins take origins only, normalised as browsers send them", () => {
    const origins = (allowedOrigins: unknown) => ApiKeyCreate.safeParse({ name: "web", allowedOrigins });
    assert.deepEqual(origins(["https://Example.com", "http://localhost:8080/"]).data?.allowedOrigins, ["https://example.com", "http://localhost:8080"]);
    for (const junk of [
      ["example.com"],
      ["https://example.com/path"],
      ["ftp://example.com"],
      ["https://user:pw@example.com"],
      ["https://example.com?x=1"],
      ["*"],
      [""],
      [],
      "https://example.com",
      [1],
    ]) {
      assert.equal(origins(junk).success, false, JSON.stringify(junk));
    }
  });
});
