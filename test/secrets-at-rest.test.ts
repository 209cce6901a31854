import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "drizzle-orm";
import { call, newAccount } from "./support/client";
import { db } from "./support/db";
import { makeMedia, putFile, settled, settledTask, tmpDir } from "./support/vod";
import { listenAsPinningService } from "./support/pinning";
import { startScratchApp, type ScratchApp } from "./support/scratch-app";

const tmp = tmpDir();
const servers: http.Server[] = [];
after(() => {
  servers.forEach((s) => (s.close(), s.closeAllConnections()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every text the built-in driver keeps about its work: events (incl. failure events) and runs. */
async function jobTables(): Promise<string> {
  const rows = await db().execute(sql`
    SELECT coalesce(string_agg(e.data::text, ' '), '') AS events,
      (SELECT coalesce(string_agg(concat(r.steps::text, r.output::text, r.error::text), ' '), '') FROM job_runs r) AS runs
    FROM job_events e`);
  const [row] = rows as unknown as { events: string; runs: string }[];
  return `${row.events} ${row.runs}`;
}

async function receiver() {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume().on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, seen };
}

describe("secrets at rest", () => {
  test("export credentials and URL userinfo are never stored in plaintext nor shown back, and still reach their receivers", async () => {
    const api = await newAccount();
    const { url, asset } = (await api.post("asset/request-upload", { name: "secret export" })).body;
    assert.equal((await putFile(url, await makeMedia(tmp, "mp4", { seconds: 2 }))).status, 200);
    assert.equal((await settled(api, asset.id)).status.phase, "ready");

    const rx = await receiver();
    const custom = await api.post(`asset/${asset.id}/export`, {
      custom: { url: `http://exporter:pa55-w0rd-x@127.0.0.1:${rx.port}/put/v.mp4?X-Signature=sig-777`, headers: { "x-api-token": "header-secret-123" } },
    });
    assert.equal(custom.status, 201);
    assert.equal(custom.body.task.params.export.custom.url, `http://127.0.0.1:${rx.port}/put/v.mp4?…`, "no userinfo, no query");
    const done = await settledTask(api, custom.body.task.id);
    assert.equal(done.status.phase, "completed", done.status.errorMessage);
    assert.equal(rx.seen[0]["x-api-token"], "header-secret-123");
    assert.equal(rx.seen[0].authorization, `Basic ${Buffer.from("exporter:pa55-w0rd-x").toString("base64")}`);

    // pinning credentials that the pinning service refuses: the task fails at once
    const pinning = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(401).end('{"error":"bad key"}')));
    await listenAsPinningService(pinning);
    servers.push(pinning);
    const ipfs = await api.post(`asset/${asset.id}/export`, { ipfs: { pinning: { apiKey: "pin-key-456", apiSecret: "pin-secret-789" } } });
    await settledTask(api, ipfs.body.task.id, 120_000);
    const jwt = await api.post(`asset/${asset.id}/export`, { ipfs: { pinning: { jwt: "jwt-secret-abc" } } });
    await settledTask(api, jwt.body.task.id, 120_000);
    pinning.close();

    const imported = await api.post("asset/import", { name: "with userinfo", url: `http://importer:imp0rt-pass@127.0.0.1:${rx.port}/v.mp4?token=tok-999` });
    assert.equal(imported.status, 201);
    assert.equal(imported.body.task.params.import.url, `http://127.0.0.1:${rx.port}/v.mp4?…`);
    assert.equal(imported.body.asset.source.url, `http://127.0.0.1:${rx.port}/v.mp4?…`);
    await settledTask(api, imported.body.task.id);
    assert.equal(rx.seen.at(-1)!.authorization, `Basic ${Buffer.from("importer:imp0rt-pass").toString("base64")}`, "the import used the credentials");

    const stored = await jobTables();
    assert.ok(stored.includes(asset.id), "the job tables were read");
    for (const secret of ["pa55-w0rd-x", "sig-777", "header-secret-123", "pin-key-456", "pin-secret-789", "jwt-secret-abc", "imp0rt-pass", "tok-999"]) {
      assert.ok(!stored.includes(secret), `${secret} is not stored in plaintext`);
      assert.ok(!JSON.stringify((await api.get("task")).body).includes(secret), `${secret} is not shown in tasks`);
      assert.ok(!JSON.stringify((await api.get("asset")).body).includes(secret), `${secret} is not shown in assets`);
    }
  });
});

describe("DATA_DIR", () => {
  test("nothing Castline keeps there is readable by other local users", async () => {
    const root = process.env.DATA_DIR!;
    // written by the test harness, not by Castline; pg/ is PostgreSQL's own (0700, checked at its top)
    const harness = new Set(["app.log", "node-tests.tap", "playwright.json"]);
    const open: string[] = [];
    let files = 0;
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (dir === root && harness.has(entry.name)) continue;
        files++;
        if (fs.lstatSync(file).mode & 0o077) open.push(`${path.relative(root, file)} ${(fs.lstatSync(file).mode & 0o777).toString(8)}`);
        if (entry.isDirectory() && !(dir === root && entry.name === "pg")) walk(file);
      }
    };
    walk(root);
    assert.ok(files > 10, "the suite has written files there");
    assert.equal(fs.statSync(root).mode & 0o066, 0, "DATA_DIR itself cannot be listed or written by others");
    assert.deepEqual(open, []);
  });
});

describe("job retention", () => {
  let app: ScratchApp;
  // about 2.6 s: finished work is forgotten within seconds
  before(async () => void (app = await startScratchApp({ JOB_RETENTION_DAYS: "0.00003" })));
  after(() => app.stop());

  test("finished runs and their events are purged after JOB_RETENTION_DAYS", async () => {
    const { cookie } = await newAccount(app.url);
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const started = await call("POST", `${app.url}/api/asset/import`, { cookie, body: { name: "x", url: `http://127.0.0.1:${port}/v.mp4` } });
    assert.equal(started.status, 201);
    const { default: postgres } = await import("postgres");
    const scratch = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const count = async () => (await scratch`SELECT count(*)::int AS n FROM job_events WHERE data->>'taskId' = ${started.body.task.id}`)[0].n;
      assert.equal(await count(), 1, "the event is stored while its run is pending");
      const deadline = Date.now() + 60_000;
      while ((await call("GET", `${app.url}/api/task/${started.body.task.id}`, { cookie })).body.status.phase !== "failed") {
        assert.ok(Date.now() < deadline, "the import failed in time");
        await new Promise((r) => setTimeout(r, 250));
      }
      while ((await count()) > 0) {
        assert.ok(Date.now() < deadline, "the finished run's event was purged");
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal((await scratch`SELECT count(*)::int AS n FROM job_runs`)[0].n, 0, "and its runs");
    } finally {
      await scratch.end();
    }
  });
});
