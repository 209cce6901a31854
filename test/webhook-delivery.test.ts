import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { startAppProcess } from "../scripts/app-process";
import { type Api, call, newAccount, signInAt } from "./support/client";
import { createScratchDatabase } from "./support/database";
import { until } from "./support/media";
import { sleep, startReceiver } from "./support/receiver";

const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");

async function hookFor(api: Api, url: string, events = ["stream.started", "stream.idle"]) {
  const res = await api.post("webhook", { name: "receiver", url, events });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { id: string; sharedSecret: string };
}

/** Polls the delivery log until `n` attempts are recorded. */
async function waitForLog(api: Api, webhookId: string, n: number, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const log = (await api.get(`webhook/${webhookId}/log`)).body;
    if (log.length >= n) return log;
    if (Date.now() > deadline) throw new Error(`expected ${n} log entries, got ${log.length}`);
    await sleep(200);
  }
}

describe("webhook delivery", () => {
  test("a test event arrives signed both ways, with the documented body", async () => {
    const api = await newAccount();
    const receiver = await startReceiver();
    try {
      const hook = await hookFor(api, receiver.url);
      const queued = await api.post(`webhook/${hook.id}/test`, { event: "stream.started" });
      assert.equal(queued.status, 202);
      const [got] = await receiver.waitFor(1);

      const lp = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers["livepeer-signature"]))!;
      assert.ok(lp, "Livepeer-Signature header");
      assert.equal(lp[2], hmac(hook.sharedSecret, got.body), "v1 = HMAC-SHA256(body)");
      const cl = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers["castline-signature"]))!;
      assert.equal(cl[2], hmac(hook.sharedSecret, `${cl[1]}.${got.body}`), "v1 = HMAC-SHA256(t.body)");
      assert.notEqual(lp[2], hmac("some other secret", got.body));

      const me = (await api.get("user/me")).body;
      assert.equal(got.json.id, queued.body.eventId);
      assert.equal(got.json.webhookId, hook.id);
      assert.equal(got.json.event, "stream.started");
      assert.equal(got.json.userId, me.id);
      assert.equal(typeof got.json.createdAt, "number");
      assert.equal(got.json.timestamp, Number(lp[1]));
      assert.equal(got.json.stream.streamKey, undefined, "never the stream key");
      assert.ok(got.json.payload.session);

      const [entry] = await waitForLog(api, hook.id, 1);
      assert.equal(entry.success, true);
      assert.equal(entry.response.status, 200);
      assert.equal(entry.response.body, "answer 200");
      assert.equal(entry.request.body, got.body);
      assert.ok(entry.durationMs >= 0);
      const status = (await api.get(`webhook/${hook.id}`)).body.status;
      assert.ok(status.lastTriggeredAt >= got.json.timestamp);
      assert.equal(status.lastFailure, undefined);
    } finally {
      await receiver.close();
    }
  });

  test("500 twice then 200: exactly three attempts with one event id, all logged", async () => {
    const api = await newAccount();
    const receiver = await startReceiver({ answers: [500, 500, 200] });
    try {
      const hook = await hookFor(api, receiver.url);
      await api.post(`webhook/${hook.id}/test`, { event: "stream.idle" });
      const got = await receiver.waitFor(3, 30_000);
      await sleep(1500);
      assert.equal(receiver.received.length, 3, "no attempt after success");
      assert.equal(new Set(got.map((r) => r.json.id)).size, 1, "one event id across retries");
      assert.ok(got[1].at - got[0].at < 5000, "first retry within seconds");

      const log = await waitForLog(api, hook.id, 3);
      assert.deepEqual(
        log.map((l: { response: { status: number } }) => l.response.status),
        [200, 500, 500],
        "newest first",
      );
      assert.deepEqual(
        log.map((l: { success: boolean }) => l.success),
        [true, false, false],
      );
      const one = await api.get(`webhook/${hook.id}/log/${log[2].id}`);
      assert.equal(one.body.eventId, got[0].json.id);
      const status = (await api.get(`webhook/${hook.id}`)).body.status;
      assert.equal(status.lastFailure.statusCode, 500);
      assert.equal(status.lastFailure.response, "answer 500");
    } finally {
      await receiver.close();
    }
  });

  test("a 400 is final: no retry", async () => {
    const api = await newAccount();
    const receiver = await startReceiver({ answers: [400, 200] });
    try {
      const hook = await hookFor(api, receiver.url);
      await api.post(`webhook/${hook.id}/test`, { event: "stream.started" });
      await receiver.waitFor(1);
      await sleep(3000);
      assert.equal(receiver.received.length, 1);
      const [entry] = await waitForLog(api, hook.id, 1);
      assert.equal(entry.success, false);
      assert.equal(entry.response.status, 400);
    } finally {
      await receiver.close();
    }
  });

  test("a receiver that is down gets the delivery once it is back; resend delivers again", async () => {
    const api = await newAccount();
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close(); // nothing listens on this port now
    const hook = await hookFor(api, `http://127.0.0.1:${port}/hook`);
    await api.post(`webhook/${hook.id}/test`, { event: "stream.idle" });
    const [failed] = await waitForLog(api, hook.id, 1);
    assert.equal(failed.success, false);
    assert.match(failed.error, /ECONNREFUSED/);
    const receiver = await startReceiver({ port });
    try {
      const [got] = await receiver.waitFor(1, 30_000);
      assert.equal(got.json.id, failed.eventId);

      const resend = await api.post(`webhook/${hook.id}/log/${failed.id}/resend`);
      assert.equal(resend.status, 202);
      const again = await receiver.waitFor(2);
      assert.equal(again[1].json.id, failed.eventId, "a resend carries the same event id");
      assert.notEqual(again[1].headers["livepeer-signature"], got.headers["livepeer-signature"], "signed anew");
    } finally {
      await receiver.close();
    }
  });

  test("only subscribed webhooks of the owner receive an event; others' ids are 404", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const receiver = await startReceiver();
    try {
      const hook = await hookFor(a, receiver.url, ["stream.idle"]);
      assert.equal((await b.post(`webhook/${hook.id}/test`, { event: "stream.idle" })).status, 404);
      assert.equal((await b.get(`webhook/${hook.id}/log`)).status, 404);
      assert.equal((await a.post(`webhook/${hook.id}/test`, { event: "nope" })).status, 422);
      await sleep(1000);
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
    }
  });
});

describe("webhook delivery survives the app being killed", () => {
  test("kill -9 during back-off, start again: the event is still delivered", async () => {
    const databaseUrl = await createScratchDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-kill-"));
    const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", MEDIA_NODE: "false", ALLOW_PRIVATE_URLS: "true" };
    let app = await startAppProcess(env);
    let killed = false;
    const receiver = await startReceiver({
      answers: [503, 503, 200],
      onRequest: () => {
        // after the second failure the run sleeps 5 s: kill the app right there
        if (receiver.received.length === 2 && !killed) {
          killed = true;
          app.child.kill("SIGKILL");
        }
      },
    });
    try {
      const email = `kill-${Date.now()}@example.com`;
      await call("POST", `${app.url}/api/user`, { body: { email, password: "long enough!" } });
      const cookie = await signInAt(app.url, email, "long enough!");
      const key = (await call("POST", `${app.url}/api/api-key`, { cookie, body: { name: "k" } })).body.key;
      const hook = (await call("POST", `${app.url}/api/webhook`, { auth: `Bearer ${key}`, body: { name: "r", url: receiver.url, events: ["stream.idle"] } }))
        .body;
      await call("POST", `${app.url}/api/webhook/${hook.id}/test`, { auth: `Bearer ${key}`, body: { event: "stream.idle" } });
      await receiver.waitFor(2);
      assert.ok(killed, "the app was killed at the second delivery");
      await until("the killed app gone", async () => app.child.signalCode !== null || app.child.exitCode !== null, 30_000, 100);

      app = await startAppProcess(env);
      const got = await receiver.waitFor(3, 40_000);
      assert.equal(got[2].json.id, got[0].json.id, "the same event, delivered after the restart");
    } finally {
      await receiver.close();
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
