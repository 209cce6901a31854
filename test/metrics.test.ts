import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { DATABASE_UNAVAILABLE, RETRY_AFTER_S } from "@/db/availability";
import { sessions } from "@/db/schema";
import { Health } from "@/lib/health/schema";
import { call, newAccount } from "./support/client";
import { db, startSession } from "./support/db";
import { sleep, startReceiver } from "./support/receiver";
import { startScratchApp } from "./support/scratch-app";

const TOKEN = process.env.METRICS_TOKEN;
if (!TOKEN) throw new Error("METRICS_TOKEN is not set: run the suite with `npm test`");

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text answer. */
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      assert.ok(m, `a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

async function scrape() {
  const res = await call("GET", "/metrics", { auth: `Bearer ${TOKEN}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { text: res.body as string, samples: parse(res.body as string) };
}

/** The value of the series with exactly these labels; undefined when there is none. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const keys = Object.keys(labels);
  return samples.find((s) => s.name === name && Object.keys(s.labels).length === keys.length && keys.every((k) => s.labels[k] === labels[k]))?.value;
}

/** Scrapes until `ok` holds for the samples (the job workers are other processes), or fails after `ms`. */
async function scrapeUntil(what: string, ok: (samples: Sample[]) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const { samples } = await scrape();
    if (ok(samples)) return samples;
    if (Date.now() > deadline) throw new Error(`metrics never showed ${what}`);
    await sleep(250);
  }
}

describe("metrics", () => {
  test("GET /metrics needs the METRICS_TOKEN and answers the Prometheus text format", async () => {
    for (const auth of [undefined, "Bearer wrong-wrong-wrong-wrong-wrong-wrong", `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await call("GET", "/metrics", { auth });
      assert.equal(res.status, 401, `auth=${auth}`);
      assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0);
    }
    const res = await call("GET", "/metrics", { auth: `Bearer ${TOKEN}` });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    assert.match(res.body, /^# TYPE castline_http_requests_total counter$/m);
    assert.match(res.body, /^# TYPE castline_http_request_duration_seconds histogram$/m);
    assert.match(res.body, /^process_resident_memory_bytes \d+/m, "the process's own metrics");
    // The viewer analytics roll-up runs every VIEW_ROLLUP_EVERY_S (2 s in the suite) and is timed.
    await scrapeUntil("a timed roll-up", (s) => (sampleValue(s, "castline_view_rollup_duration_seconds_count") ?? 0) >= 1, 30_000);
    // What it has not added up yet, read from PostgreSQL: a count, kept down by the runs.
    await scrapeUntil("the pending view changes, applied", (s) => sampleValue(s, "castline_view_changes_pending") === 0, 60_000);
  });

  test("requests are counted and timed by route template and status, with no ids in labels", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "metrics" })).body;
    const before = (await scrape()).samples;
    const listed = { method: "GET", route: "/api/stream", status: "200" };
    const got = { method: "GET", route: "/api/stream/{id}", status: "200" };
    const missing = { method: "GET", route: "/api/stream/{id}", status: "404" };

    for (let i = 0; i < 3; i++) assert.equal((await api.get("stream")).status, 200);
    assert.equal((await api.get(`stream/${stream.id}`)).status, 200);
    assert.equal((await api.get("stream/no-such-stream")).status, 404);
    await call("GET", `/hls/${stream.playbackId}/index.m3u8`);
    assert.equal((await call("GET", "/sign-in")).status, 200);

    const { text, samples } = await scrape();
    const grew = (labels: Record<string, string>, by: number) =>
      assert.ok(
        (sampleValue(samples, "castline_http_requests_total", labels) ?? 0) >= (sampleValue(before, "castline_http_requests_total", labels) ?? 0) + by,
        `castline_http_requests_total${JSON.stringify(labels)} grew by ${by}`,
      );
    grew(listed, 3);
    grew(got, 1);
    grew(missing, 1);
    const count = (s: Sample[]) => sampleValue(s, "castline_http_request_duration_seconds_count", { method: "GET", route: "/api/stream" }) ?? 0;
    assert.ok(count(samples) >= count(before) + 3, "each request is timed");
    const slowest = sampleValue(samples, "castline_http_request_duration_seconds_bucket", { method: "GET", route: "/api/stream", le: "+Inf" });
    assert.equal(slowest, count(samples));
    const routes = new Set(samples.filter((s) => s.name === "castline_http_requests_total").map((s) => s.labels.route));
    assert.ok(routes.has("/hls/{playbackId}/..."), [...routes].join(", "));
    assert.ok(routes.has("page"), "the sign-in page is a page");
    for (const id of [stream.id, stream.playbackId, "no-such-stream"]) assert.ok(!text.includes(id), `${id} is in no label`);
    for (const route of routes) assert.doesNotMatch(route, /[0-9a-f]{8}-[0-9a-f]{4}-|\/[a-z2-9]{16}(\/|$)/, "no raw id in a route label");
  });

  test("webhook deliveries are counted by outcome, from the database, whichever process delivered", async () => {
    const api = await newAccount();
    const accepting = await startReceiver({ answers: [200] });
    const refusing = await startReceiver({ answers: [400] });
    try {
      const before = (await scrape()).samples;
      const deliveries = (s: Sample[], outcome: string) => sampleValue(s, "castline_webhook_deliveries", { outcome }) ?? NaN;
      for (const receiver of [accepting, refusing]) {
        const hook = (await api.post("webhook", { name: "metrics", url: receiver.url, events: ["stream.started"] })).body;
        assert.equal((await api.post(`webhook/${hook.id}/test`, { event: "stream.started" })).status, 202);
        await receiver.waitFor(1);
      }
      await scrapeUntil(
        "a delivered and a failed attempt more",
        (s) => deliveries(s, "delivered") >= deliveries(before, "delivered") + 1 && deliveries(s, "failed") >= deliveries(before, "failed") + 1,
      );
    } finally {
      await accepting.close();
      await refusing.close();
    }
  });

  test("job runs, job lag, live sessions and media nodes are read at scrape time", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "metrics live" })).body;
    const session = await startSession(stream.id);
    try {
      const { samples } = await scrape();
      for (const status of ["queued", "running", "failed"]) {
        assert.ok((sampleValue(samples, "castline_job_runs", { status }) ?? -1) >= 0, `castline_job_runs{status="${status}"}`);
      }
      assert.ok((sampleValue(samples, "castline_job_lag_seconds") ?? -1) >= 0);
      assert.ok((sampleValue(samples, "castline_live_sessions") ?? 0) >= 1, "our session is live");
      for (const state of ["healthy", "overloaded", "lost"]) {
        assert.ok((sampleValue(samples, "castline_media_nodes", { state }) ?? -1) >= 0, `castline_media_nodes{state="${state}"}`);
      }
    } finally {
      await db().update(sessions).set({ isActive: false, endedAt: Date.now() }).where(eq(sessions.id, session.id));
    }
  });
});

describe("health", () => {
  test("GET /api/health answers its checks: database and store ok, jobs and nodes as the metrics say", async () => {
    const res = await call("GET", "health");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const health = Health.parse(res.body);
    const { database, store, jobs, nodes } = health.checks;
    assert.equal(database.ok, true);
    assert.ok(database.latencyMs >= 0);
    assert.deepEqual({ ok: store.ok, kind: store.kind }, { ok: true, kind: "local" });
    assert.ok(store.latencyMs > 0, "the store was written and read back");
    assert.equal(health.status, store.ok && jobs.ok && nodes.ok ? "ok" : "degraded");
    assert.equal(jobs.ok, jobs.lagS <= 60);
    assert.equal(nodes.ok, nodes.healthy + nodes.overloaded > 0 || nodes.lost === 0);

    // Both read the same table; other files' nodes come and go meanwhile, so they agree at some moment.
    const agreeing = async () => {
      const now = Health.parse((await call("GET", "health")).body).checks.nodes;
      const { samples } = await scrape();
      const states = ["healthy", "overloaded", "lost"] as const;
      return states.every((state) => now[state] === sampleValue(samples, "castline_media_nodes", { state }));
    };
    const deadline = Date.now() + 30_000;
    while (!(await agreeing())) {
      assert.ok(Date.now() < deadline, "health and metrics count the same media nodes");
      await sleep(250);
    }
    const text = JSON.stringify(res.body);
    assert.doesNotMatch(text, /127\.0\.0\.1|localhost|postgres|\/tmp\//, "no internal address or path");
  });
});

describe("a deployment of its own (metrics off, its store and database broken on purpose)", () => {
  test("no METRICS_TOKEN: no metrics; a broken store or only lost nodes: degraded; no database: 503", async () => {
    const app = await startScratchApp({ JOB_WORKERS: "0", METRICS_TOKEN: "" });
    const { dataDir, databaseUrl } = app;
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const health = async () => {
      const res = await call("GET", `${app.url}/api/health`);
      return { status: res.status, body: res.status === 200 ? Health.parse(res.body) : res.body };
    };
    try {
      const metrics = await call("GET", `${app.url}/metrics`, { auth: `Bearer ${TOKEN}` });
      assert.equal(metrics.status, 404);
      assert.ok(metrics.body.errors.length > 0);

      assert.equal((await health()).body.status, "ok");
      // The probe's folder becomes a file: the store can no longer be written there.
      const probeDir = path.join(dataDir, "objects", "health");
      fs.rmSync(probeDir, { recursive: true, force: true });
      fs.writeFileSync(probeDir, "in the way");
      let answer = await health();
      assert.equal(answer.status, 200);
      assert.equal(answer.body.status, "degraded");
      assert.deepEqual([answer.body.checks.store.ok, answer.body.checks.database.ok], [false, true]);
      fs.rmSync(probeDir);
      assert.equal((await health()).body.status, "ok", "ok again once the store works");

      const now = Date.now();
      await sql`INSERT INTO media_nodes (id, rtmp_port, cores, cpu_load, live_sessions, started_at, last_heartbeat_at, lost_at)
                VALUES ('node-gone', 1935, 2, 0, 0, ${now - 60_000}, ${now - 30_000}, ${now - 20_000})`;
      answer = await health();
      assert.equal(answer.body.status, "degraded");
      assert.deepEqual(answer.body.checks.nodes, { ok: false, healthy: 0, overloaded: 0, lost: 1 });

      // No new connections (superusers included), and the app's own cut: its database is gone.
      await sql.end();
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      const name = new URL(databaseUrl).pathname.slice(1);
      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
      await admin.end();
      // The health check or the server's own watch of the database, whichever notices first: one answer.
      const refused = await call("GET", `${app.url}/api/health`);
      assert.equal(refused.status, 503);
      assert.deepEqual(refused.body, { errors: [DATABASE_UNAVAILABLE] });
      assert.equal(refused.headers.get("retry-after"), String(RETRY_AFTER_S));
    } finally {
      await sql.end();
      await app.stop();
    }
  });
});
