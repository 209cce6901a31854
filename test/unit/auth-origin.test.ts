import assert from "node:assert/strict";
import { test } from "node:test";
import { isFromOwnPage } from "@/lib/auth/origin";
import { browserOrigin, publicOrigin, servingRequest } from "@/lib/origin";
import { safeCallback, signInPath } from "@/lib/client/callback";
import { reloadConfig, type Config } from "@/lib/config";

/** Where sign-in and sign-out redirect to, and which callbacks sign-in follows. */

const settings = (over: Partial<Config>) => ({ AUTH_TRUST_HOST: false, PUBLIC_URL: undefined, ...over }) as Config;

test("PUBLIC_URL, else the Host header, else with AUTH_TRUST_HOST the forwarded host; the scheme as forwarded", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(browserOrigin(h({ host: "localhost:3900" }), settings({})), "http://localhost:3900");
  assert.equal(browserOrigin(h({ host: "[::1]:4000", "x-forwarded-proto": "https" }), settings({})), "https://[::1]:4000");
  assert.equal(browserOrigin(h({ host: "10.0.0.5:3000", "x-forwarded-host": "evil.example" }), settings({})), "http://10.0.0.5:3000");
  assert.equal(
    browserOrigin(
      h({ host: "10.0.0.5:3000", "x-forwarded-host": "video.example.com, 10.0.0.1", "x-forwarded-proto": "https,http" }),
      settings({ AUTH_TRUST_HOST: true }),
    ),
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
  for (const url of [
    undefined,
    "",
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
  ]) {
    assert.equal(safeCallback(url), "/streams", JSON.stringify(url));
  }
  assert.equal(signInPath("/webhooks/w1?tab=log"), "/sign-in?callbackUrl=%2Fwebhooks%2Fw1%3Ftab%3Dlog");
  assert.equal(signInPath("//evil.example"), "/sign-in");
});

test("a cookie-authenticated change must name this app's page: Origin, else Sec-Fetch-Site, else Referer", () => {
  const req = (method: string, headers: Record<string, string>) =>
    new Request("http://localhost:3900/api/stream", { method, headers: { host: "localhost:3900", ...headers } });
  const own = "http://localhost:3900";
  const allowed: Record<string, string>[] = [
    { origin: own },
    { "sec-fetch-site": "same-origin" },
    { referer: `${own}/streams/x` },
    { origin: own, "sec-fetch-site": "same-origin" },
  ];
  for (const headers of allowed) {
    assert.equal(isFromOwnPage(req("POST", headers)), true, JSON.stringify(headers));
  }
  const refused: Record<string, string>[] = [
    {},
    { origin: "http://localhost:3901" },
    { origin: "null" },
    { origin: "https://localhost:3900" },
    // Origin decides when present: a same-origin Sec-Fetch-Site or Referer does not overrule it
    { origin: "http://evil.localhost:3900", "sec-fetch-site": "same-origin", referer: `${own}/` },
    { "sec-fetch-site": "same-site" },
    { "sec-fetch-site": "cross-site", referer: `${own}/` },
    { "sec-fetch-site": "none" },
    { referer: "http://localhost:3901/page" },
    { referer: "not a url" },
  ];
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    for (const headers of refused) assert.equal(isFromOwnPage(req(method, headers)), false, `${method} ${JSON.stringify(headers)}`);
  }
  for (const method of ["GET", "HEAD", "OPTIONS"]) assert.equal(isFromOwnPage(req(method, { origin: "http://localhost:3901" })), true, method);
});

test("URLs handed out: PUBLIC_URL; else the origin of the request being answered; else the app's own URL", () => {
  const saved = { PUBLIC_URL: process.env.PUBLIC_URL, APP_URL: process.env.APP_URL };
  try {
    delete process.env.PUBLIC_URL;
    process.env.APP_URL = "http://127.0.0.1:4100";
    reloadConfig();
    assert.equal(publicOrigin(), "http://127.0.0.1:4100", "background work: the app's own URL");
    assert.equal(servingRequest(new Headers({ host: "localhost:4100" }), publicOrigin), "http://localhost:4100");
    assert.equal(servingRequest(new Headers({ host: "[::1]:4100", "x-forwarded-proto": "https" }), publicOrigin), "https://[::1]:4100");
    assert.equal(servingRequest(new Headers({ host: "localhost:4100", "x-forwarded-host": "evil.example" }), publicOrigin), "http://localhost:4100");
    assert.equal(servingRequest(new Headers({ host: "bad host" }), publicOrigin), "http://127.0.0.1:4100", "an unusable Host: the app's own URL");
    process.env.PUBLIC_URL = "https://tv.example.org/castline/";
    reloadConfig();
    assert.equal(servingRequest(new Headers({ host: "localhost:4100" }), publicOrigin), "https://tv.example.org/castline");
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadConfig();
  }
});
