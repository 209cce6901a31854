import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { cli } from "./support/cli";
import { Api, call, newAccount, signIn } from "./support/client";

describe("health", () => {
  test("GET /api/health answers 200 without auth", async () => {
    const res = await call("GET", "health");
    assert.equal(res.status, 200);
    assert.equal(res.body.status, "ok");
  });
});

describe("API key authentication", () => {
  test("missing, malformed and unknown keys get 401 with errors", async () => {
    for (const auth of [undefined, "Basic abc", "Bearer", "Bearer cl_doesnotexist", "Bearer not-even-our-format", "cl_abc"]) {
      const res = await call("GET", "stream", { auth });
      assert.equal(res.status, 401, `auth=${auth}`);
      assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0);
    }
  });

  test("a key works, is listed without its secret, records last use, and stops working when revoked", async () => {
    const api = await newAccount();
    const me = await api.get("user/me");
    assert.equal(me.status, 200);
    assert.equal(me.body.email, api.email);
    assert.deepEqual(Object.keys(me.body).sort(), ["createdAt", "email", "id", "name"]);

    const keys = await api.get("api-key");
    assert.equal(keys.status, 200);
    assert.equal(keys.body.length, 1);
    assert.equal(keys.body[0].key, undefined, "the key itself is never listed");
    assert.ok(api.key.startsWith(keys.body[0].prefix));
    assert.ok(keys.body[0].lastUsedAt > Date.now() - 60_000, "last use recorded");

    const second = await api.post("api-key", { name: "second" });
    assert.equal(second.status, 201);
    assert.ok(second.body.key.length >= 30, "at least 128 bits of key");
    const secondApi = new Api(second.body.key, api.email);
    assert.equal((await secondApi.get("user/me")).status, 200);
    assert.equal((await api.delete(`api-key/${second.body.id}`)).status, 204);
    assert.equal((await secondApi.get("user/me")).status, 401);
    assert.equal((await api.delete(`api-key/${second.body.id}`)).status, 404);
  });

  test("another user's key id cannot be revoked", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const keyOfA = (await a.get("api-key")).body[0];
    assert.equal((await b.delete(`api-key/${keyOfA.id}`)).status, 404);
    assert.equal((await a.get("user/me")).status, 200);
  });
});

describe("dashboard sign-up and sign-in", () => {
  test("sign-up validates its input", async () => {
    const email = `signup-${randomUUID()}@example.com`;
    assert.equal((await call("POST", "user", { body: { email: "not-an-email", password: "long enough" } })).status, 422);
    assert.equal((await call("POST", "user", { body: { email, password: "short" } })).status, 422);
    const created = await call("POST", "user", { body: { email, password: "long enough!" } });
    assert.equal(created.status, 201);
    assert.equal(created.body.passwordHash, undefined);
  });

  test("sign-up answers alike whether or not the email has an account, and leaves the account as it was", async () => {
    const email = `taken-${randomUUID()}@example.com`;
    const first = await call("POST", "user", { body: { email, password: "the first password", name: "First" } });
    assert.equal(first.status, 201);

    const again = await call("POST", "user", { body: { email: email.toUpperCase(), password: "a second password", name: "Second" } });
    const fresh = await call("POST", "user", { body: { email: `fresh-${randomUUID()}@example.com`, password: "a second password", name: "Second" } });
    assert.equal(again.status, fresh.status);
    assert.equal(again.headers.get("content-type"), fresh.headers.get("content-type"));
    const shape = (body: Record<string, unknown>) =>
      Object.entries(body)
        .map(([k, v]) => `${k}:${typeof v}`)
        .sort();
    assert.deepEqual(shape(again.body), shape(fresh.body));
    assert.equal(again.body.email, email);
    assert.equal(again.body.name, "Second");
    assert.notEqual(again.body.id, first.body.id, "the existing account's id is not told");

    const cookie = await signIn(email, "the first password");
    const me = await call("GET", "user/me", { cookie });
    assert.deepEqual(me.body, first.body, "the account is unchanged");
    await assert.rejects(signIn(email, "a second password"));
  });

  test("sign-up takes as long for a taken email as for a new one (the password is hashed either way)", async () => {
    const taken = `timing-${randomUUID()}@example.com`;
    assert.equal((await call("POST", "user", { body: { email: taken, password: "long enough!" } })).status, 201);
    const timed = async (email: string) => {
      const start = performance.now();
      assert.equal((await call("POST", "user", { body: { email, password: "long enough!" } })).status, 201);
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const forTaken: number[] = [];
    const forNew: number[] = [];
    for (let i = 0; i < 5; i++) {
      forTaken.push(await timed(taken));
      forNew.push(await timed(`timing-${randomUUID()}@example.com`));
    }
    // scrypt costs tens of milliseconds; skipping it would answer several times faster.
    assert.ok(median(forTaken) > median(forNew) / 3, `taken ${median(forTaken).toFixed(0)} ms vs new ${median(forNew).toFixed(0)} ms`);
  });

  test("the session cookie authenticates the same /api routes; a wrong password does not sign in", async () => {
    const api = await newAccount();
    const me = await call("GET", "user/me", { cookie: api.cookie });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, api.email);
    const stream = await call("POST", "stream", { cookie: api.cookie, body: { name: "from the dashboard" } });
    assert.equal(stream.status, 201);
    await assert.rejects(signIn(api.email, "wrong password"));
  });
});

describe("operator CLI", () => {
  test("keys create makes the user and prints a working key on the last line, while the app runs", async () => {
    const email = `cli-${randomUUID()}@example.com`;
    const { stdout } = await cli(["keys", "create", "--email", email, "--name", "ops"]);
    const key = stdout.trim().split("\n").at(-1)!;
    const me = await new Api(key, email).get("user/me");
    assert.equal(me.status, 200);
    assert.equal(me.body.email, email);
  });

  test("users create sets a password read from stdin (never from the command line) that signs in", async () => {
    const email = `cli-${randomUUID()}@example.com`;
    await cli(["users", "create", "--email", email, "--password-stdin"], { stdin: "operator-pass\n" });
    const cookie = await signIn(email, "operator-pass");
    assert.equal((await call("GET", "user/me", { cookie })).status, 200);
    await assert.rejects(cli(["users", "create", "--email", email, "--password", "on-the-command-line"]), (err: { code: number }) => err.code !== 0);
  });

  test("users create tells the operator when the email already has an account", async () => {
    const email = `cli-${randomUUID()}@example.com`;
    assert.equal((await call("POST", "user", { body: { email, password: "signed up myself" } })).status, 201);
    const { stdout } = await cli(["users", "create", "--email", email]);
    assert.match(stdout, new RegExp(`user ${email} exists`));
  });

  test("bad arguments exit non-zero with a message", async () => {
    await assert.rejects(cli(["keys", "create", "--email", "nope"]), (err: { stderr: string }) => /--email/.test(err.stderr));
  });
});
