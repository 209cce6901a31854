import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { Api, call, newAccount, type Res } from "./support/client";
import { createScratchDatabase } from "./support/database";

/**
 * Rate limits, against an app of their own with low limits (the suite's app has limits too
 * high to reach). It trusts one proxy (TRUST_PROXY=1), so each test can be a client of its own
 * address through X-Forwarded-For, the way a reverse proxy would say it.
 */
const LIMITS = {
  RATE_LIMIT_API_PER_MIN: "5",
  RATE_LIMIT_IP_PER_MIN: "8",
  RATE_LIMIT_AUTH_PER_MIN: "3",
  RATE_LIMIT_PLAYBACK_PER_MIN: "10",
  RATE_LIMIT_BEACONS_PER_MIN: "6",
};

let app: AppProcess;
let second: AppProcess;
const dirs: string[] = [];

async function startInstance(databaseUrl: string, authSecret: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-limits-"));
  dirs.push(dataDir);
  return startAppProcess({
    ...process.env,
    ...LIMITS,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    AUTH_SECRET: authSecret,
    PORT: "0",
    HOST: "127.0.0.1",
    MEDIA_NODE: "false",
    JOB_WORKERS: "0",
    TRUST_PROXY: "1",
  });
}

before(async () => {
  const databaseUrl = await createScratchDatabase();
  const secret = randomUUID() + randomUUID();
  // Side by side (they migrate the database once, under a lock); each is tied to this process.
  [app, second] = await Promise.all([startInstance(databaseUrl, secret), startInstance(databaseUrl, secret)]);
});
after(async () => {
  await Promise.all([app?.stop(), second?.stop()]);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

let lastAddress = 0;
/** A client address no other test uses. */
const newAddress = () => `198.51.100.${++lastAddress}`;
const from = (address: string) => ({ "x-forwarded-for": address });

/** Counts are per clock-aligned minute (the app's clock is this machine's). */
const windowOf = (at: number) => Math.floor(at / 60_000);
const nextWindow = () => new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 300));

/**
 * Runs a test's counted sequence, which counts subjects of its own (new addresses, keys,
 * accounts). One that crossed into the next minute was counted in two windows, so its failure
 * proves nothing: it runs again at once, on new subjects, in the window just begun. A failure
 * within one window fails. (Rather than waiting for room in the window before every sequence:
 * most never cross.)
 */
async function inOneWindow(sequence: () => Promise<void>) {
  const started = Date.now();
  try {
    await sequence();
  } catch (err) {
    if (windowOf(Date.now()) === windowOf(started)) throw err;
    await sequence();
  }
}

/** An account of its own, signed up from an address of its own (sign-ups are limited per address). */
async function newUser() {
  const user = { email: `limits-${randomUUID()}@example.com`, password: "correct horse battery" };
  assert.equal((await call("POST", "user", { base: app.url, headers: from(newAddress()), body: user })).status, 201);
  return user;
}

function assertQuota(res: Res, limit: number, remaining: number) {
  assert.equal(res.headers.get("ratelimit-limit"), String(limit), `${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.headers.get("ratelimit-remaining"), String(remaining));
  const reset = Number(res.headers.get("ratelimit-reset"));
  assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
}

function assertRefused(res: Res, what: RegExp) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.match(res.body.errors[0], what);
  const retry = Number(res.headers.get("retry-after"));
  assert.ok(retry >= 1 && retry <= 60, `retry-after ${res.headers.get("retry-after")}`);
  assert.equal(res.headers.get("ratelimit-reset"), res.headers.get("retry-after"));
  assert.equal(res.headers.get("ratelimit-remaining"), "0");
}

/** One sign-in try through Auth.js's credentials endpoint, as the dashboard's client sends it. */
const trySignIn = (email: string, password: string, address: string, base = app.url) =>
  postSignIn(
    [
      ["email", email],
      ["password", password],
    ],
    address,
    base,
  );

/** A sign-in with these fields (in this order, repeated if so given), with a valid CSRF token; as JSON when asked. */
async function postSignIn(fields: [string, string][], address: string, base = app.url, as: "form" | "json" = "form") {
  const csrf = await call("GET", `${base}/api/auth/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const all: [string, string][] = [...fields, ["csrfToken", csrf.body.csrfToken]];
  const res = await call("POST", `${base}/api/auth/callback/credentials`, {
    cookie,
    raw: as === "form" ? new URLSearchParams(all).toString() : JSON.stringify(Object.fromEntries(all)),
    headers: { "content-type": as === "form" ? "application/x-www-form-urlencoded" : "application/json", "x-auth-return-redirect": "1", ...from(address) },
  });
  const signedIn = res.headers.getSetCookie().some((c) => /authjs\.session-token=[^;]/.test(c));
  return Object.assign(res, { signedIn });
}

/** What a refused window is waited out for, at the end; and when the last was refused. */
const refusedEarlier: (() => Promise<Res>)[] = [];
let lastRefusedAt = 0;
const refusedUntilLater = (again: () => Promise<Res>) => {
  refusedEarlier.push(again);
  lastRefusedAt = Date.now();
};

describe("rate limits on /api", () => {
  let api: Awaited<ReturnType<typeof newAccount>>;
  before(async () => {
    api = await newAccount(app.url);
  });

  test("every answer, success or error, carries the tightest quota; past the key's limit a 429 with Retry-After; another key is counted apart", async () => {
    await inOneWindow(async () => {
      const address = newAddress();
      const key = await call("POST", "api-key", { base: app.url, cookie: api.cookie, body: { name: "limited" }, headers: from(newAddress()) });
      const keyApi = new Api(key.body.key, api.email, app.url);
      const list = () => keyApi.send("GET", "stream", { headers: from(address) });
      for (let i = 1; i <= 5; i++) {
        const res = await list();
        assert.equal(res.status, 200);
        assertQuota(res, 5, 5 - i); // the key's 5 before the address's 8
      }
      assertRefused(await list(), /API key: at most 5 a minute/);
      refusedUntilLater(list);

      // an error answer carries the address's quota (no key was counted for it)
      const unauthenticated = await call("GET", "stream", { base: app.url, headers: from(address) });
      assert.equal(unauthenticated.status, 401);
      assertQuota(unauthenticated, 8, 1);

      const other = await call("POST", "api-key", { base: app.url, cookie: api.cookie, body: { name: "second" }, headers: from(newAddress()) });
      assert.equal(other.status, 201);
      assert.equal((await new Api(other.body.key, api.email, app.url).send("GET", "stream", { headers: from(newAddress()) })).status, 200);
    });
  });

  test("the count is shared by the app instances (PostgreSQL): a key spent on one is refused on the other", async () => {
    await inOneWindow(async () => {
      const key = await call("POST", "api-key", { base: app.url, cookie: api.cookie, body: { name: "shared" }, headers: from(newAddress()) });
      const onFirst = new Api(key.body.key, api.email, app.url);
      const onSecond = new Api(key.body.key, api.email, second.url);
      for (let i = 0; i < 5; i++) assert.equal((await (i % 2 ? onSecond : onFirst).send("GET", "user/me", { headers: from(newAddress()) })).status, 200);
      assertRefused(await onSecond.send("GET", "user/me", { headers: from(newAddress()) }), /API key/);
      assertRefused(await onFirst.send("GET", "user/me", { headers: from(newAddress()) }), /API key/);
    });
  });

  test("per address, authenticated or not; an address the client writes in X-Forwarded-For before the proxy's is not believed", async () => {
    await inOneWindow(async () => {
      const address = newAddress();
      for (let i = 1; i <= 8; i++) {
        const res = await call("GET", "ingest", { base: app.url, headers: from(address) });
        assert.equal(res.status, 200);
        assertQuota(res, 8, 8 - i);
      }
      assertRefused(await call("GET", "ingest", { base: app.url, headers: from(address) }), /address: at most 8 a minute/);
      // A client behind the proxy prepends an address of its choice: the proxy appends the real one.
      assertRefused(await call("GET", "ingest", { base: app.url, headers: { "x-forwarded-for": `203.0.113.99, ${address}` } }), /address/);
      assertRefused(await api.send("GET", "stream", { headers: from(address) }), /address/);
      assert.equal((await call("GET", "ingest", { base: app.url, headers: from(newAddress()) })).status, 200);
    });
  });

  test("sign-ups are limited per address", async () => {
    await inOneWindow(async () => {
      const address = newAddress();
      const signUp = () =>
        call("POST", "user", { base: app.url, headers: from(address), body: { email: `limits-${randomUUID()}@example.com`, password: "a fine passphrase" } });
      for (let i = 0; i < 3; i++) assert.equal((await signUp()).status, 201);
      const refused = await signUp();
      assert.equal(refused.status, 429);
      assert.match(refused.body.errors[0], /sign-ups from this address: at most 3 a minute/);
      assert.ok(Number(refused.headers.get("retry-after")) >= 1);
      // The RateLimit headers are the address's /api quota, which is not spent.
      assertQuota(refused, 8, 4);
    });
  });
});

describe("sign-in throttling", () => {
  let user: Awaited<ReturnType<typeof newAccount>>;
  before(async () => {
    user = await newAccount(app.url);
  });

  test("after 3 failed sign-ins for an email, further tries (even the right password, from anywhere) get 429 until the window ends", async () => {
    await inOneWindow(async () => {
      const victim = await newUser();
      for (let i = 0; i < 3; i++) {
        const res = await trySignIn(victim.email, `wrong guess ${i}`, newAddress());
        assert.equal(res.status, 200);
        assert.equal(res.signedIn, false);
        assert.match(res.body.url, /error=CredentialsSignin/);
      }
      const refused = await trySignIn(victim.email, victim.password, newAddress());
      assertRefused(refused, /failed sign-ins for this email: at most 3 a minute/);
      assert.equal(refused.signedIn, false);
      // The dashboard's sign-in page reads the wait from the code of the URL it is given.
      const url = new URL(refused.body.url);
      assert.equal(url.searchParams.get("error"), "TooManyAttempts");
      assert.equal(url.searchParams.get("code"), refused.headers.get("retry-after"));
      refusedUntilLater(async () => {
        const res = await trySignIn(victim.email, victim.password, newAddress());
        assert.ok(res.signedIn, "the right password signs in once the window has passed");
        return res;
      });
    });
  });

  test("per address too, and an unknown email is answered exactly as a wrong password", async () => {
    await inOneWindow(async () => {
      const known = await newUser();
      const address = newAddress();
      const unknown = `nobody-${randomUUID()}@example.com`;
      const answers = [];
      for (let i = 0; i < 3; i++) {
        const res = await trySignIn(i % 2 ? unknown : known.email, "not the password", address);
        answers.push({ status: res.status, body: res.body, signedIn: res.signedIn });
      }
      assert.deepEqual(answers[0], answers[1], "a wrong password and an unknown email answer alike");
      assertRefused(await trySignIn(`other-${randomUUID()}@example.com`, "whatever it is", address), /failed sign-ins from this address/);
    });
  });

  test("a form that repeats a field (a decoy email before the victim's) is refused before any password is checked, and counts nothing", async () => {
    await inOneWindow(async () => {
      const target = await newUser();
      const decoy = () => `decoy-${randomUUID()}@example.com`;
      for (let i = 0; i < 5; i++) {
        const res = await postSignIn(
          [
            ["email", decoy()],
            ["email", target.email],
            ["password", `guess ${i}`],
          ],
          newAddress(),
        );
        assert.equal(res.status, 400, `try ${i + 1}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.match(res.body.errors[0], /the sign-in form has the field "email" more than once/);
        assert.equal(res.signedIn, false);
      }
      const repeatedPassword = await postSignIn(
        [
          ["email", target.email],
          ["password", "a guess"],
          ["password", target.password],
        ],
        newAddress(),
      );
      assert.equal(repeatedPassword.status, 400);
      assert.equal(repeatedPassword.signedIn, false, "even with the right password last");
      // Auth.js also reads JSON, where a repeated key keeps its last value too: a sign-in is a form.
      const json = await postSignIn(
        [
          ["email", target.email],
          ["password", target.password],
        ],
        newAddress(),
        app.url,
        "json",
      );
      assert.equal(json.status, 415, JSON.stringify(json.body));
      assert.equal(json.signedIn, false);
      // None of those was checked or counted: the email's failures count from zero.
      for (let i = 0; i < 2; i++) assert.equal((await trySignIn(target.email, `wrong ${i}`, newAddress())).signedIn, false);
      assert.ok((await trySignIn(target.email, target.password, newAddress())).signedIn);
    });
  });

  test("successful sign-ins are not failures: they never run into the limit", async () => {
    await inOneWindow(async () => {
      const address = newAddress();
      for (let i = 0; i < 5; i++) assert.ok((await trySignIn(user.email, user.password, address)).signedIn, `sign-in ${i + 1}`);
    });
  });
});

describe("playback", () => {
  test("limited per address in the server, /api/playback with the media; counted locally, shared with the other instances within seconds", async () => {
    await inOneWindow(async () => {
      const address = newAddress();
      const paths = ["/hls/nope/index.m3u8", "/api/playback/nope", "/asset/nope/video", "/recordings/nope/index.m3u8"];
      for (let i = 1; i <= 10; i++) {
        const res = await call("GET", paths[i % paths.length], { base: app.url, headers: from(address) });
        assert.equal(res.status, 404);
        assertQuota(res, 10, 10 - i);
      }
      const refused = await call("GET", "/hls/nope/index.m3u8", { base: app.url, headers: from(address) });
      assertRefused(refused, /playback requests from this address: at most 10 a minute/);
      assert.equal(refused.headers.get("access-control-allow-origin"), "*", "players on other sites can read it");
      assertRefused(await call("GET", "/api/playback/nope", { base: app.url, headers: from(address) }), /playback/);

      // The other instance learns the shared count at its next flush (every 2 s).
      const deadline = Date.now() + 8000;
      let res: Res;
      do {
        res = await call("GET", "/hls/nope/index.m3u8", { base: second.url, headers: from(address) });
        if (res.status === 429) break;
        await new Promise((r) => setTimeout(r, 250));
      } while (Date.now() < deadline);
      assertRefused(res, /playback/);
      // The API's own limits are apart from playback's.
      assert.equal((await call("GET", "ingest", { base: app.url, headers: from(address) })).status, 200);
    });
  });
});

describe("viewer beacons", () => {
  test("a flood of beacons from one address is refused past its limit (readable by players on any site); a view's beacons sent to both instances are one view, rolled up once", async () => {
    const api = await newAccount(app.url);
    // Made with an address of its own: the key's 5 a minute are not this test's subject.
    const stream = (await call("POST", "stream", { base: app.url, auth: `Bearer ${api.key}`, headers: from(newAddress()), body: { name: "watched" } })).body;
    const view = { playbackId: stream.playbackId, viewId: randomUUID(), viewerId: randomUUID(), event: "heartbeat" };
    const send = (base: string, address: string, playedMs: number) =>
      call("POST", "/api/data/views/beacon", { base, raw: JSON.stringify({ ...view, playedMs }), headers: { "content-type": "text/plain", ...from(address) } });
    await inOneWindow(async () => {
      const address = newAddress();
      for (let i = 1; i <= 6; i++) {
        const res = await send(app.url, address, i * 1000);
        assert.equal(res.status, 204, JSON.stringify(res.body));
        assertQuota(res, 6, 6 - i);
      }
      const refused = await send(app.url, address, 7000);
      assertRefused(refused, /viewer beacons from this address: at most 6 a minute/);
      assert.equal(refused.headers.get("access-control-allow-origin"), "*");
      assert.equal((await send(app.url, newAddress(), 8000)).status, 204, "another address is not refused");
    });
    // The same view's last beacon through the other instance: still one view, with its latest total.
    assert.equal((await send(second.url, newAddress(), 9000)).status, 204);
    const deadline = Date.now() + 60_000;
    let rows: { viewCount: number; playtimeMins: number }[] = [];
    while (Date.now() < deadline) {
      const res = await call("GET", `data/views/query?playbackId=${stream.playbackId}`, {
        base: second.url,
        auth: `Bearer ${api.key}`,
        headers: from(newAddress()),
      });
      rows = res.body;
      if (res.status === 200 && rows[0]?.playtimeMins === 9000 / 60_000) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.deepEqual(rows, [{ playbackId: stream.playbackId, viewCount: 1, playtimeMins: 0.15, rebufferRatio: 0, errorRate: 0, exitsBeforeStart: 0 }]);
  });
});

describe("recovery", () => {
  test("what was refused works again once its window has passed", async () => {
    // The tests that refused ran first: most of their window has passed by now.
    if (windowOf(Date.now()) === windowOf(lastRefusedAt)) await nextWindow();
    for (const again of refusedEarlier) assert.notEqual((await again()).status, 429);
    assert.ok(refusedEarlier.length >= 2);
  });
});
