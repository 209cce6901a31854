import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { AppProcess } from "../scripts/app-process";
import { BASE, raw } from "./support/client";
import { dashboardPages } from "./support/dashboard-pages";
import { startScratchApp } from "./support/scratch-app";

/**
 * Sign-in and sign-out redirect to the origin the browser used (any port; behind a
 * proxy the operator trusts, the forwarded one), and a signed-out visit to a dashboard
 * page comes back to it after sign-in. (The rules themselves: test/unit/auth-origin.test.ts.)
 */

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

  test("every dashboard page, /broadcasts and /nodes among them, brings a signed-out visitor back after sign-in", async () => {
    const pages = dashboardPages();
    assert.ok(pages.includes("/broadcasts") && pages.includes("/nodes"), pages.join(", "));
    for (const page of pages) {
      const res = await raw(BASE, "GET", page, {});
      assert.equal(res.status, 307, page);
      // The dashboard's home is where sign-in leads anyway: its redirect names no callback.
      const back = page === "/streams" ? "" : `?callbackUrl=${encodeURIComponent(page)}`;
      assert.equal(res.headers.location, `/sign-in${back}`, page);
    }
  });
});

describe("behind a reverse proxy (AUTH_TRUST_HOST=true)", () => {
  let app: AppProcess;

  before(async () => {
    app = await startScratchApp({ JOB_WORKERS: "0", AUTH_TRUST_HOST: "true" });
  });
  after(async () => {
    await app?.stop();
  });

  test("redirects go to the host and scheme the proxy forwards", async () => {
    const forwarded = { "x-forwarded-host": "video.example.com", "x-forwarded-proto": "https" };
    assert.equal(await signOutLocation(app.url, forwarded), "https://video.example.com/sign-in");
    assert.equal(await signOutLocation(app.url), `${new URL(app.url).origin}/sign-in`, "without a proxy, the Host header");
  });
});
