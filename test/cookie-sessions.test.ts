import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cli } from "./support/cli";
import { BASE, call, newAccount, raw, signIn, signOut } from "./support/client";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * The dashboard's session cookie: what it may do from where (only the dashboard's own pages
 * may change anything with it), and what ends it (signing out, a password reset).
 * The same attack in a real browser: e2e/cookie-origin.spec.ts.
 */

const own = new URL(BASE).origin;
/** Another origin of the same site: the app's address on another port. */
const elsewhere = `http://${new URL(BASE).hostname}:${Number(new URL(BASE).port) === 9 ? 10 : 9}`;

const signedIn = (cookie: string) => call("GET", "user/me", { cookie }).then((r) => r.status);

/** A dashboard page, as the browser asks for it: 200 signed in, else a redirect to sign in. */
const dashboardPage = (cookie: string) => raw(BASE, "GET", "/streams", { cookie }).then((r) => r.status);

/** The session cookie a use of `cookie` re-issues (every use renews it, with a new expiry and JWT id). */
async function reissued(cookie: string): Promise<string> {
  const res = await call("GET", "auth/session", { cookie });
  const renewed = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.includes("authjs.session-token="));
  assert.ok(renewed && renewed !== cookie, "the session cookie is re-issued on use");
  return renewed;
}

describe("cookie-authenticated changes come from the dashboard's own pages only", () => {
  test("a change naming another origin (Origin, Sec-Fetch-Site or Referer), or none, is refused and changes nothing", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "target" })).body;
    const refusals: Record<string, string>[] = [
      { origin: elsewhere },
      { origin: "null" },
      { origin: `https://${new URL(BASE).host}` },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site" },
      { referer: `${elsewhere}/page` },
      {},
    ];
    for (const headers of refusals) {
      const rotated = await fetch(`${BASE}/api/stream/${stream.id}/rotate-key`, { method: "POST", headers: { cookie: api.cookie, ...headers } });
      assert.equal(rotated.status, 403, JSON.stringify(headers));
      assert.match((await rotated.json()).errors[0], /dashboard's own pages/);
      const renamed = await fetch(`${BASE}/api/stream/${stream.id}`, {
        method: "PATCH",
        headers: { cookie: api.cookie, "content-type": "application/json", ...headers },
        body: JSON.stringify({ name: "renamed" }),
      });
      assert.equal(renamed.status, 403, JSON.stringify(headers));
      assert.equal((await fetch(`${BASE}/api/stream/${stream.id}`, { method: "DELETE", headers: { cookie: api.cookie, ...headers } })).status, 403);
    }
    const after = (await api.get(`stream/${stream.id}`)).body;
    assert.equal(after.streamKey, stream.streamKey, "the key is unchanged");
    assert.equal(after.name, "target");

    // Reading is not changing: another origin's page cannot read the answer anyway (no CORS).
    const read = await fetch(`${BASE}/api/stream/${stream.id}`, { headers: { cookie: api.cookie, origin: elsewhere } });
    assert.equal(read.status, 200);
  });

  test("a caption file sent as text/plain (no CORS preflight) from another origin is refused; from the dashboard it is added", async () => {
    const api = await newAccount();
    const dir = tmpDir();
    const { asset, url } = (await api.post("asset/request-upload", { name: "captioned" })).body;
    await putFile(url, await makeMedia(dir, "mp4", { seconds: 2 }));
    assert.equal((await settled(api, asset.id)).status.phase, "ready");
    const vtt = "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n";
    const send = (origin: string) =>
      fetch(`${BASE}/api/asset/${asset.id}/text-tracks?language=en`, {
        method: "POST",
        headers: { cookie: api.cookie, origin, "content-type": "text/plain" },
        body: vtt,
      });
    assert.equal((await send(elsewhere)).status, 403);
    assert.deepEqual((await api.get(`asset/${asset.id}/text-tracks`)).body, []);
    assert.equal((await send(own)).status, 201);
    assert.equal((await api.get(`asset/${asset.id}/text-tracks`)).body.length, 1);
  });

  test("the dashboard's own pages may: Origin, else Sec-Fetch-Site same-origin, else a Referer on this app", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "mine" })).body;
    const port = new URL(BASE).port;
    const allowed: Record<string, string>[] = [
      { origin: own },
      { "sec-fetch-site": "same-origin" },
      { referer: `${own}/streams/${stream.id}` },
      // the same app reached by another name: the page's origin is the one the browser used
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
    ];
    let key = stream.streamKey;
    for (const headers of allowed) {
      const res = await raw(BASE, "POST", `/api/stream/${stream.id}/rotate-key`, { cookie: api.cookie, ...headers });
      assert.equal(res.status, 200, `${JSON.stringify(headers)}: ${res.body}`);
      const rotated = JSON.parse(res.body).streamKey;
      assert.notEqual(rotated, key);
      key = rotated;
    }
    // An API key needs no Origin (servers, the SDK).
    assert.equal((await api.post(`stream/${stream.id}/rotate-key`)).status, 200);
  });
});

describe("ending dashboard sessions", () => {
  test("signing out ends that session: every copy of its cookie, re-issued ones too, is refused; other sessions go on", async () => {
    const api = await newAccount();
    const other = await signIn(api.email, api.password);
    const copy = api.cookie;
    const renewedCopy = await reissued(api.cookie);
    assert.equal(await signedIn(copy), 200);
    assert.equal(await dashboardPage(copy), 200);

    await signOut(api.cookie);
    assert.equal(await signedIn(copy), 401);
    assert.equal(await signedIn(renewedCopy), 401);
    assert.equal((await call("POST", "stream", { cookie: copy, body: { name: "after sign-out" } })).status, 401);
    assert.equal(await dashboardPage(copy), 307, "the dashboard sends it to sign in");
    assert.equal((await call("GET", "auth/session", { cookie: renewedCopy })).body, null, "and it is not re-issued");

    assert.equal(await signedIn(other), 200, "the account's other session goes on");
    assert.equal((await api.get("user/me")).status, 200, "API keys go on");
  });

  test("an operator's password reset with the CLI ends every session of the account; its API keys go on", async () => {
    const api = await newAccount();
    const second = await signIn(api.email, api.password);
    assert.equal(await signedIn(api.cookie), 200);
    assert.equal(await signedIn(second), 200);

    const { stdout } = await cli(["users", "create", "--email", api.email, "--password-stdin"], { stdin: "a brand new password\n" });
    assert.match(stdout, /password updated, its dashboard sessions ended/);
    assert.equal(await signedIn(api.cookie), 401);
    assert.equal(await signedIn(second), 401);
    assert.equal(await dashboardPage(second), 307);
    assert.equal((await api.get("user/me")).status, 200, "API keys are not sessions");
    await assert.rejects(signIn(api.email, api.password), "the old password no longer signs in");
    assert.equal(await signedIn(await signIn(api.email, "a brand new password")), 200);
  });

  test("cli users sign-out ends every session of the account without changing its password", async () => {
    const api = await newAccount();
    assert.equal(await signedIn(api.cookie), 200);
    await cli(["users", "sign-out", "--email", api.email]);
    assert.equal(await signedIn(api.cookie), 401);
    assert.equal(await signedIn(await signIn(api.email, api.password)), 200);
    await assert.rejects(cli(["users", "sign-out", "--email", "nobody-here@example.com"]), (err: { stderr: string }) => /no account/.test(err.stderr));
  });

  test("a forged or foreign session cookie is refused", async () => {
    assert.equal(await signedIn("authjs.session-token=forged"), 401);
  });
});
