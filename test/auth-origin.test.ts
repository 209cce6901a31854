import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { browserOrigin } from "@/lib/auth/origin";
import { safeCallback, signInPath } from "@/lib/client/callback";
import type { Config } from "@/lib/config";
import { BASE } from "./support/client";
import { createScratchDatabase } from "./support/database";

/**
 * Sign-in and sign-out redirect to the origin the browser used (any port; behind a
 * proxy the operator trusts, the forwarded one; PUBLIC_URL when set), and a signed-out
 * visit to a dashboard page comes back to it after sign-in, never to another site.
 */

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with headers fetch() will not send as given (Host). */
function raw(base: string, method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const url = new URL(pathname, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Where POST /api/auth/signout (as the dashboard's sign-out button sends it) redirects to. */
async function signOutLocation(base: string, headers: Record<string, string> = {}): Promise<string> {
  const csrf = await raw(base, "GET", "/api/auth/csrf", headers);
  assert.equal(csrf.status, 200, csrf.body);
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const form = new URLSearchParams({ csrfToken: JSON.parse(csrf.body).csrfToken, callbackUrl: "/sign-in" }).toString();
  const res = await raw(base, "POST", "/api/auth/signout", { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" }, form);
  assert.equal(res.status, 302, res.body);
  return res.headers.location!;
}

const settings = (over: Partial<Config>) => ({ AUTH_TRUST_HOST: false, PUBLIC_URL: undefined, ...over }) as Config;

describe("the browser's origin (in process)", () => {
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
});

describe("sign-in and sign-out redirects (the suite's app, on a random port)", () => {
  const port = new URL(BASE).port;

  test("sign-out redirects to the sign-in page of the origin the browser used", async () => {
    assert.notEqual(port, "3000");
    assert.equal(await signOutLocation(BASE), `${new URL(BASE).origin}/sign-in`);
    assert.equal(await signOutLocation(BASE, { host: `localhost:${port}` }), `http://localhost:${port}/sign-in`);
    assert.equal(await signOutLocation(BASE, { host: "castline.lan:8080" }), "http://castline.lan:8080/sign-in");
  });

  test("forwarded hosts are ignored unless the operator trusts the proxy", async () => {
    const location = await signOutLocation(BASE, { "x-forwarded-host": "evil.example" });
    assert.equal(new URL(location).host, new URL(BASE).host);
  });

  test("a signed-out visit to a dashboard page is sent to sign in, then back to that page", async () => {
    const res = await raw(BASE, "GET", "/webhooks/w1?tab=log", {});
    assert.equal(res.status, 307);
    assert.equal(res.headers.location, "/sign-in?callbackUrl=%2Fwebhooks%2Fw1%3Ftab%3Dlog");
  });
});

describe("behind a reverse proxy (AUTH_TRUST_HOST=true)", () => {
  let app: AppProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-proxy-"));

  before(async () => {
    app = await startAppProcess({
      ...process.env,
      DATABASE_URL: await createScratchDatabase(),
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      MEDIA_NODE: "false",
      JOB_WORKERS: "0",
      AUTH_TRUST_HOST: "true",
    });
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("redirects go to the host and scheme the proxy forwards", async () => {
    const forwarded = { "x-forwarded-host": "video.example.com", "x-forwarded-proto": "https" };
    assert.equal(await signOutLocation(app.url, forwarded), "https://video.example.com/sign-in");
    assert.equal(await signOutLocation(app.url), `${new URL(app.url).origin}/sign-in`, "without a proxy, the Host header");
  });
});
