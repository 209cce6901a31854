import assert from "node:assert/strict";
import { test } from "node:test";
import { browserOrigin } from "@/lib/auth/origin";
import { safeCallback, signInPath } from "@/lib/client/callback";
import type { Config } from "@/lib/config";

/** Where sign-in and sign-out redirect to, and which callbacks sign-in follows. */

const settings = (over: Partial<Config>) => ({ AUTH_TRUST_HOST: false, PUBLIC_URL: undefined, ...over }) as Config;

test("PUBLIC_URL, else the Host header, else with AUTH_TRUST_HOST the forwarded host; the scheme as forwarded", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(browserOrigin(h({ host: "localhost:3900" }), settings({})), "http://localhost:3900");
  assert.equal(browserOrigin(h({ host: "[::1]:4000", "x-forwarded-proto": "https" }), settings({})), "https://[::1]:4000");
  assert.equal(browserOrigin(h({ host: "10.0.0.5:3000", "x-forwarded-host": "evil.example" }), settings({})), "http://10.0.0.5:3000");
  assert.equal(
    browserOrigin(h({ host: "10.0.0.5:3000", "x-forwarded-host": "video.example.com, 10.0.0.1", "x-forwarded-proto": "https,http" }), settings({ AUTH_TRUST_HOST: true })),
    "https://video.example.com",
  );
  assert.equal(
    browserOrigin(h({ host: "10.0.0.5:3000", "x-forwarded-host": "video.example.com" }), settings({ PUBLIC_URL: "https://tv.example.org/castline" })),
    "https://tv.example.org",
  );
  for (const host of ["evil.example/path", "user@evil.example", "", "a b"]) {
    assert.equal(browserOrigin(h({ host }), settings({})), undefined, host);
  }
});

test("callbacks stay on this site, as the browser would resolve them", () => {
  assert.equal(safeCallback("/streams/abc?x=1#y"), "/streams/abc?x=1#y");
  for (const url of [undefined, "", "https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "\\\\evil.example", "javascript:alert(1)"]) {
    assert.equal(safeCallback(url), "/streams", JSON.stringify(url));
  }
  assert.equal(signInPath("/webhooks/w1?tab=log"), "/sign-in?callbackUrl=%2Fwebhooks%2Fw1%3Ftab%3Dlog");
  assert.equal(signInPath("//evil.example"), "/sign-in");
});
