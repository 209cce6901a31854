import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { runningServer } from "@/db/embedded-server";
import { freePort } from "@/lib/net/free-port";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { call, newAccount } from "./support/client";
import { until } from "./support/media";
import { alive, descendants } from "./support/processes";

/**
 * The launcher and the embedded PostgreSQL it owns, hurt on purpose: an app of its own (its own
 * DATA_DIR and embedded server, a job worker and a media node), so the suite's app is untouched.
 */
let app: AppProcess;
let dataDir: string;

let env: NodeJS.ProcessEnv;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-crash-"));
  env = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", JOB_WORKERS: "1", RTMP_PORT: String(await freePort()) };
  delete env.DATABASE_URL;
  app = await startAppProcess(env);
});
after(async () => {
  await app?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("crashes around the launcher", { concurrency: false }, () => {
  test("losing the embedded PostgreSQL: 503 with Retry-After at once, then the app comes back by itself", async () => {
    const api = await newAccount(app.url);
    const stream = await api.post("stream", { name: "survives the database" });
    assert.equal(stream.status, 201);
    const server = runningServer(path.join(dataDir, "pg"))!;
    process.kill(server.pid, "SIGKILL");

    const seen: { status: number; ms: number; retryAfter: string | null }[] = [];
    await until(
      "the API to answer with the stream again",
      async () => {
        const started = performance.now();
        const res = await api.get(`stream/${stream.body.id}`);
        seen.push({ status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after") });
        return res.status === 200 && res.body.name === "survives the database";
      },
      120_000,
      100,
    );
    const refused = seen.filter((s) => s.status !== 200);
    assert.ok(refused.length > 0, "the database was away for a while");
    assert.deepEqual([...new Set(refused.map((s) => s.status))], [503], `only 503s while it was away: ${JSON.stringify(refused)}`);
    assert.ok(
      refused.every((s) => Number(s.retryAfter) > 0),
      "each says when to try again",
    );
    // Generous for a loaded machine; before, such answers took up to 15 s (or never came).
    assert.ok(
      refused.every((s) => s.ms < 5000),
      `answered without waiting on the database: ${JSON.stringify(refused)}`,
    );
    await until("health to be ok", async () => (await call("GET", "health", { base: app.url })).status === 200, 60_000);
    assert.notEqual(runningServer(path.join(dataDir, "pg"))?.pid, server.pid, "a new server was started");
  });

  test("kill -9 of the launcher takes its job worker, media node and PostgreSQL down with it; every viewer beacon it had answered is there when it starts again", async () => {
    const api = await newAccount(app.url);
    const stream = (await api.post("stream", { name: "watched through a crash" })).body;
    // Viewers' beacons, 20 at a time, each a new view, until the app is gone.
    const answered: string[] = [];
    let sent = 0;
    let flooding = true;
    const flood = Promise.all(
      Array.from({ length: 20 }, async () => {
        while (flooding) {
          const view = { playbackId: stream.playbackId, viewId: randomUUID(), viewerId: randomUUID(), event: "start" };
          sent++;
          const res = await fetch(`${app.url}/api/data/views/beacon`, {
            method: "POST",
            headers: { "content-type": "text/plain" },
            body: JSON.stringify(view),
          }).catch(() => undefined);
          if (res?.status === 204) answered.push(view.viewId);
          else if (!res) return; // the app is gone
        }
      }),
    );
    await until("beacons answered", async () => answered.length >= 200, 30_000, 20);

    const pid = app.child.pid!;
    const server = runningServer(path.join(dataDir, "pg"))!;
    const below = descendants(pid);
    assert.ok(below.includes(server.pid), "the database is the launcher's");
    assert.ok(below.length >= 3, `a worker, a media node and the database run below it: ${below}`);
    process.kill(pid, "SIGKILL");
    await until("every process it started to end", async () => below.every((p) => !alive(p)), 60_000);
    flooding = false;
    await flood;

    // Started again on the same data: each view a beacon was answered for was stored (more may be:
    // committed, then killed before the answer went).
    app = await startAppProcess(env);
    const stored = await until(
      "the views rolled up",
      async () => {
        const res = await call("GET", `data/views/query?playbackId=${stream.playbackId}`, { base: app.url, auth: `Bearer ${api.key}` });
        return res.status === 200 && res.body[0].viewCount >= answered.length && (res.body[0].viewCount as number);
      },
      60_000,
      500,
    );
    assert.ok(stored <= sent, `${stored} views stored, ${answered.length} answered, ${sent} sent`);
    console.log(`${answered.length} beacons answered before the kill, ${sent} sent; ${stored} views stored`);
  });
});
