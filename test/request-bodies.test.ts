import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import type { AppProcess } from "../scripts/app-process";
import { call } from "./support/client";
import { startScratchApp } from "./support/scratch-app";

/**
 * Bodies a client sends without saying their length (chunked), far past what the app takes,
 * against an app of its own: its process's memory is read from /proc while it answers.
 */
const MiB = 1024 * 1024;
const SENT_AT_MOST = 192 * MiB;

let app: AppProcess;

before(async () => {
  app = await startScratchApp({ JOB_WORKERS: "0" });
});
after(async () => {
  await app?.stop();
});

/** The app process's peak resident memory (kB) since the last reset (writing 5 to clear_refs resets it). */
const peakKb = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${app.child.pid}/status`, "utf8"))![1]);
const resetPeak = () => fs.writeFileSync(`/proc/${app.child.pid}/clear_refs`, "5");

/**
 * A POST whose body is sent chunked, 1 MiB at a time, until the app answers (or SENT_AT_MOST):
 * resolves with the answer and how much had been sent by then.
 */
function postChunked(pathname: string, contentType: string, head: string): Promise<{ status: number; body: { errors?: string[] }; sent: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(pathname, app.url), { method: "POST", headers: { "content-type": contentType, "transfer-encoding": "chunked" } });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      let text = "";
      res.setEncoding("utf8").on("data", (d) => (text += d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(text || "{}"), sent: sentWhenAnswered });
      });
    });
    // Once answered, the app may close the connection on the rest of the body.
    req.on("error", (err) => answered || reject(err));
    const filler = Buffer.alloc(MiB, "a");
    const stopped = new Promise((stop) => (req.once("response", stop), req.once("close", stop)));
    (async () => {
      req.write(head);
      sent = head.length;
      while (!answered && sent < SENT_AT_MOST) {
        sent += filler.length;
        if (!req.write(filler)) await Promise.race([new Promise((drained) => req.once("drain", drained)), stopped]);
      }
      if (!answered) req.end();
    })().catch(reject);
  });
}

describe("request bodies", () => {
  before(async () => {
    // What the first requests load (route modules, the database pool) is not what is measured.
    assert.equal((await call("POST", "user", { base: app.url, body: { email: "not an email" } })).status, 422);
    const form = new URLSearchParams({ email: `warm-${randomUUID()}@example.com`, password: "not the password" }).toString();
    await call("POST", "/api/auth/callback/credentials", { base: app.url, raw: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
  });

  const cases = [
    {
      what: "a sign-up (POST /api/user, no account needed)",
      path: "/api/user",
      type: "application/json",
      head: '{"email":"a@example.com","password":"',
      limit: /the request body is over 1048576 bytes/,
    },
    {
      what: "a sign-in form",
      path: "/api/auth/callback/credentials",
      type: "application/x-www-form-urlencoded",
      head: "email=a%40example.com&password=",
      limit: /the sign-in form is over 16384 bytes/,
    },
  ];
  for (const { what, path: pathname, type, head, limit } of cases) {
    test(`${what} sent chunked past its limit is refused with 413 as it streams, and the app does not hold it`, async (t) => {
      resetPeak();
      const before = peakKb();
      const res = await postChunked(pathname, type, head);
      const grownMiB = (peakKb() - before) / 1024;
      t.diagnostic(
        `answered ${res.status} after ${(res.sent / MiB).toFixed(1)} MiB sent; peak RSS ${(before / 1024).toFixed(0)} -> ${(before / 1024 + grownMiB).toFixed(0)} MiB`,
      );
      assert.ok(res.sent < SENT_AT_MOST / 2, `answered (${res.status}) only after ${(res.sent / MiB).toFixed(0)} MiB of the body`);
      assert.ok(grownMiB < 48, `the app's resident memory peaked ${grownMiB.toFixed(0)} MiB higher for a body it refused`);
      assert.equal(res.status, 413, JSON.stringify(res.body));
      assert.match(res.body.errors![0], limit);
      assert.equal((await call("GET", "ingest", { base: app.url })).status, 200, "the app goes on answering");
    });
  }
});
