import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { after, describe, test } from "node:test";
import postgres from "postgres";
import { ERRORS } from "@tus/server";
import { PgLocker } from "@/lib/assets/upload/tus-locker";

/**
 * The tus lock shared by app instances (lib/assets/upload/tus-locker.ts), against the real
 * PostgreSQL: each PgLocker is one instance's (its own connection), a child process
 * is an instance that dies.
 */
const url = process.env.DATABASE_URL!;
const lockers: PgLocker[] = [];
const instance = (timeoutMs?: number) => {
  const locker = new PgLocker(url, timeoutMs);
  lockers.push(locker);
  return locker;
};
const uploadId = () => `tus/${randomUUID()}.${"0".repeat(32)}`;
const never = () => new AbortController().signal;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

after(async () => {
  await Promise.all(lockers.map((l) => l.close()));
});

describe("the tus lock across app instances", () => {
  test("one holder at a time: a waiter on another instance asks the holder to let go, and gets the lock once it has", async () => {
    const [a, b] = [instance(), instance()];
    const id = uploadId();
    const events: string[] = [];
    const held = a.newLock(id);
    await held.lock(never(), () => {
      events.push("asked to release");
      // As a tus request does: it ends, then unlocks.
      void sleep(300).then(() => {
        events.push("released");
        return held.unlock();
      });
    });
    const waiting = b.newLock(id);
    await waiting.lock(never(), () => {});
    events.push("acquired by the waiter");
    assert.deepEqual(events, ["asked to release", "released", "acquired by the waiter"]);
    await waiting.unlock();
    // and free again for the first instance
    const again = a.newLock(id);
    await again.lock(never(), () => {});
    await again.unlock();
  });

  test("a holder that does not let go keeps the lock: the waiter gives up after its timeout, or when its request ends", async () => {
    const [a, b] = [instance(), instance(1000)];
    const id = uploadId();
    const held = a.newLock(id);
    await held.lock(never(), () => {});
    const started = Date.now();
    await assert.rejects(
      b.newLock(id).lock(never(), () => {}),
      (err) => err === ERRORS.ERR_LOCK_TIMEOUT,
    );
    assert.ok(Date.now() - started >= 900, `gave up after ${Date.now() - started} ms`);

    const request = new AbortController();
    setTimeout(() => request.abort(), 200);
    const abortedAt = Date.now();
    await assert.rejects(
      instance()
        .newLock(id)
        .lock(request.signal, () => {}),
      (err) => err === ERRORS.ERR_LOCK_TIMEOUT,
    );
    assert.ok(Date.now() - abortedAt < 800, "stops waiting when its request ends");
    await held.unlock();
  });

  test("two requests in one instance are exclusive too (advisory locks are re-entrant within a session)", async () => {
    const a = instance(800);
    const id = uploadId();
    const first = a.newLock(id);
    await first.lock(never(), () => {});
    await assert.rejects(
      a.newLock(id).lock(never(), () => {}),
      (err) => err === ERRORS.ERR_LOCK_TIMEOUT,
    );
    await first.unlock();
    const second = a.newLock(id);
    await second.lock(never(), () => {});
    await second.unlock();
    // different uploads do not wait for each other
    const other = a.newLock(uploadId());
    const mine = a.newLock(uploadId());
    await Promise.all([other.lock(never(), () => {}), mine.lock(never(), () => {})]);
    await Promise.all([other.unlock(), mine.unlock()]);
  });

  test("kill -9 of the instance holding an upload frees it at once", async () => {
    const id = uploadId();
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/tus-lock-holder.ts", id], {
      env: process.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (c: Buffer) => c.toString().includes("locked") && resolve());
      child.once("exit", (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    const waiter = instance(1500);
    await assert.rejects(
      waiter.newLock(id).lock(never(), () => {}),
      (err) => err === ERRORS.ERR_LOCK_TIMEOUT,
      "held while the holder lives",
    );
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const started = Date.now();
    const lock = instance(5000).newLock(id);
    await lock.lock(never(), () => {});
    assert.ok(Date.now() - started < 2000, `acquired ${Date.now() - started} ms after the kill`);
    await lock.unlock();
  });

  test("a holder whose database connection is cut is told to stop, and the upload is free for others", async () => {
    const a = instance();
    const id = uploadId();
    let told = false;
    const held = a.newLock(id);
    await held.lock(never(), () => {
      told = true;
    });
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      // The session holding the upload's advisory lock (a bigint key is classid:objid, objsubid 1).
      const [{ key }] = await admin<{ key: string }[]>`SELECT hashtextextended(${`castline tus upload ${id}`}, 0)::text AS key`;
      const k = BigInt.asUintN(64, BigInt(key));
      const [{ pid }] = await admin<{ pid: number }[]>`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
        AND classid = ${String(k >> 32n)}::oid AND objid = ${String(k & 0xffffffffn)}::oid`;
      await admin`SELECT pg_terminate_backend(${pid})`;
    } finally {
      await admin.end();
    }
    for (let i = 0; i < 50 && !told; i++) await sleep(100);
    assert.ok(told, "the holder's request was asked to end");
    const lock = instance(3000).newLock(id);
    await lock.lock(never(), () => {});
    await lock.unlock();
    await held.unlock(); // after the cut: does nothing, and does not fail
  });
});
