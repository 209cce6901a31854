import http from "node:http";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { countries } from "countries-list";
import { db } from "@/db/client";
import { assets, streams } from "@/db/schema";
import { deviceOf } from "@/lib/analytics/audience";
import { DELTA_COLUMNS, deltaOf, rollUp } from "@/lib/analytics/rollup";
import { createApiKey } from "@/lib/api-keys/service";
import { newViewId } from "@/lib/client/view-beacons";
import { newId, newPlaybackId, newStreamKey } from "@/lib/ids";
import { createUser } from "@/lib/users/service";
import { startListening } from "./listening";
import { procStat, treeCpuSeconds } from "./process-cpu";

/**
 * Viewer analytics (issue 27), through HTTP and on the bench's PostgreSQL:
 * 1. beacons (POST /api/data/views/beacon) accepted per second by one app instance, each answered
 *    once committed, against plain node:http reading the same bodies and answering 204
 *    (bench/bare-beacons.ts), in the same run: flat out at a fixed number of connections, then
 *    paced (PACED_RATES, the target's last). The beacons are those of LIVE_VIEWS views playing at once across
 *    the account's playback ids (start, first frame, heartbeats with growing totals, exit; a new
 *    view takes an ended one's place), from a handful of real User-Agents and countries;
 * 2. the viewership API's queries, one at a time, for an account with PLAYBACK_IDS playback ids
 *    and VIEWS views over 30 days (loaded by INSERT ... SELECT in PostgreSQL, with the mixes of
 *    part 1, then rolled up by lib/analytics/rollup.ts as the app would), beside two floors:
 *    `SELECT 1` through postgres.js and an authenticated GET /api/stream/{id} through the app;
 * 3. what the views and their roll-ups take on disk, per million views.
 */
const VIEWS = Number(process.env.BENCH_ANALYTICS_VIEWS ?? 10_000_000);
const PLAYBACK_IDS = 1000;
const DAYS = 30;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows per INSERT ... SELECT while loading (each its own transaction). */
const LOAD_CHUNK = 1_000_000;
/** Viewers (their ids) per view: a viewer watches 4 views a month on average. */
const VIEWS_PER_VIEWER = 4;
const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 100);
const WARM_REQUESTS = 5;
/** Views playing at once during part 1: at one beacon per view every 10 s, 5,000 beacons/s are 50,000 viewers. */
const LIVE_VIEWS = 20_000;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARM_S = 2;
const TARGET = { beaconsPerS: 5000, beaconP99Ms: 50, queryP99Ms: 200 };
/** Flat out: enough beacons in flight for the writer's group commit to gather batches. */
const FLAT_OUT_CONNECTIONS = 64;
/** Paced: players each send a beacon now and then on a connection of their own; many connections, each seldom busy. */
const PACED_SOCKETS = 256;
/** A paced beacon answered later than this counts towards a stall (its window is printed). */
const SLOW_MS = 50;
/** The paced loads' rates (beacons a second), the target's last. */
const PACED_RATES = [...(process.env.BENCH_BEACON_RATES ?? "2500").split(",").map(Number), TARGET.beaconsPerS];
/** Where the bench's viewers' country comes from (the app is started with COUNTRY_HEADER naming it: bench/run.ts). */
export const COUNTRY_HEADER = "X-Bench-Country";

/** A handful of real User-Agents, with their shares of views. */
const USER_AGENTS: [string, number][] = [
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", 30],
  ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", 20],
  ["Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", 12],
  ["Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", 8],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", 8],
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", 6],
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", 5],
  ["Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", 4],
  ["Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36", 3],
  ["Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager", 2],
  ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", 2],
];

/** Countries (ISO codes; '' unknown: no header) and time zones, with their shares of views. */
const PLACES: [string, string, number][] = [
  ["US", "America/New_York", 12],
  ["US", "America/Chicago", 8],
  ["US", "America/Los_Angeles", 8],
  ["GB", "Europe/London", 7],
  ["IN", "Asia/Kolkata", 7],
  ["DE", "Europe/Berlin", 6],
  ["BR", "America/Sao_Paulo", 6],
  ["FR", "Europe/Paris", 5],
  ["CA", "America/Toronto", 4],
  ["JP", "Asia/Tokyo", 4],
  ["MX", "America/Mexico_City", 3],
  ["ES", "Europe/Madrid", 3],
  ["IT", "Europe/Rome", 3],
  ["AU", "Australia/Sydney", 3],
  ["NL", "Europe/Amsterdam", 2],
  ["PH", "Asia/Manila", 2],
  ["ID", "Asia/Jakarta", 2],
  ["NG", "Africa/Lagos", 2],
  ["KR", "Asia/Seoul", 2],
  ["PL", "Europe/Warsaw", 2],
  ["TR", "Europe/Istanbul", 2],
  ["AR", "America/Argentina/Buenos_Aires", 2],
  ["", "Europe/London", 5],
];

/** The bounds between the shares of `weights` on [0, 1): what width_bucket() picks an index with. */
function thresholds(weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.slice(0, -1).map((w) => (sum += w) / total);
}

/** An index picked at random by `weights` (its thresholds). */
function pick(bounds: number[]): number {
  const r = Math.random();
  let i = 0;
  while (i < bounds.length && r >= bounds[i]) i++;
  return i;
}

/** Playback ids' popularity as a power law: index floor(n r^3), so the first has 10% of the views and the last few hundred 1‰ or less each. */
const popularIndex = (n: number) => Math.min(n - 1, Math.floor(n * Math.random() ** 3));

const UA_BOUNDS = thresholds(USER_AGENTS.map(([, w]) => w));
const PLACE_BOUNDS = thresholds(PLACES.map(([, , w]) => w));
const continentOf = (country: string) => (country ? countries[country as keyof typeof countries].continent : "");

interface Content {
  playbackId: string;
  id: string;
  kind: "stream" | "asset";
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const verdict = (met: boolean) => (met ? "met" : "MISSED");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function printTable(title: string, head: string[], rows: (string | number)[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  for (const row of [head, ...rows]) console.log(row.map((c, i) => (i ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(" | "));
}

/** The account's content: one stream in five (the most watched playback id is a stream), the rest ready assets. */
async function seedContent(userId: string, now: number): Promise<Content[]> {
  const content: Content[] = Array.from({ length: PLAYBACK_IDS }, (_, i) => ({
    playbackId: newPlaybackId(),
    id: newId(),
    kind: i % 5 === 0 ? "stream" : "asset",
  }));
  const created = now - (DAYS + 10) * DAY_MS;
  for (let start = 0; start < content.length; start += 500) {
    const batch = content.slice(start, start + 500);
    const ofStreams = batch.filter((c) => c.kind === "stream");
    const ofAssets = batch.filter((c) => c.kind === "asset");
    if (ofStreams.length)
      await db()
        .insert(streams)
        .values(
          ofStreams.map((c, i) => ({
            id: c.id,
            userId,
            name: `channel ${start + i}`,
            streamKey: newStreamKey(),
            playbackId: c.playbackId,
            createdAt: created,
          })),
        );
    if (ofAssets.length)
      await db()
        .insert(assets)
        .values(
          ofAssets.map((c, i) => ({
            id: c.id,
            userId,
            name: `video ${start + i}`,
            playbackId: c.playbackId,
            phase: "ready",
            updatedAt: created,
            createdAt: created,
            source: { type: "directUpload" as const },
            videoSpec: { format: "mp4", duration: 60 + (((start + i) * 97) % 3600), tracks: [] },
          })),
        );
  }
  return content;
}

/**
 * VIEWS views of the account's content over the last DAYS days (to an hour short of it, so that
 * none expires while the bench runs), as players' beacons would have left them, inserted in the
 * order they began: start times uniform, playback ids by popularity, User-Agents' dimensions (parsed by the app's own parser)
 * and places by their shares; 5% left before their first frame; watch time exponential (mean
 * 4 min, at most 4 h, never past now: those are playing now); TTFF 150 ms + exponential (mean
 * 700 ms); 15% rebuffered, 2% errored; 90% of the ended ones sent their exit beacon.
 */
async function loadViews(userId: string, content: Content[], now: number) {
  const devices = USER_AGENTS.map(([ua]) => deviceOf(ua));
  const from = now - DAYS * DAY_MS + HOUR_MS;
  const params = [
    userId,
    content.map((c) => c.playbackId),
    content.map((c) => c.id),
    from,
    now,
    UA_BOUNDS,
    devices.map((d) => d.browser),
    devices.map((d) => d.browserEngine),
    devices.map((d) => d.os),
    devices.map((d) => d.deviceType),
    devices.map((d) => d.device),
    PLACE_BOUNDS,
    PLACES.map(([c]) => c),
    PLACES.map(([c]) => continentOf(c)),
    PLACES.map(([, tz]) => tz),
    Math.ceil(VIEWS / VIEWS_PER_VIEWER),
  ];
  // Subqueries whose columns call random() are not flattened by the planner: each value is drawn
  // once per row. The names are looked up by joins (an array parameter cast per row would be
  // parsed per row).
  const insert = `
    WITH content AS (SELECT * FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(playback_id, content_id, p)),
      agents AS (SELECT * FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::text[]) WITH ORDINALITY AS t(browser, browser_engine, os, device_type, device, u)),
      places AS (SELECT * FROM unnest($13::text[], $14::text[], $15::text[]) WITH ORDINALITY AS t(country, continent, timezone, c))
    INSERT INTO views (id, playback_id, user_id, content_id, viewer_id, started_at, seen_at, browser, browser_engine, os, device_type, device,
      country, continent, timezone, mode, ttff_ms, played_ms, rebuffer_count, rebuffer_ms, error_count, error_type, seek_count, quality_changes, height, ended)
    SELECT lpad(to_hex(started), 12, '0') || substr(md5(random()::text), 1, 20), content.playback_id, $1, content.content_id, viewer, started, least(finish, $5::bigint),
      agents.browser, agents.browser_engine, agents.os, agents.device_type, agents.device, places.country, places.continent, places.timezone,
      mode, ttff, played, rebuffers, rebuffered, errors, CASE WHEN errors > 0 THEN error_type END, seeks, quality_changes, height, finish < $5::bigint AND exit_sent
    FROM (
      SELECT *, started + coalesce(ttff, 0) + played + rebuffered AS finish FROM (
        SELECT *,
          CASE WHEN ttff IS NULL THEN 0 ELSE least(floor(-ln(1 - random()) * 240000)::bigint, 14400000, greatest($5::bigint - started - ttff, 0)) END AS played,
          rebuffers * (200 + floor(random() * 2000)::bigint) AS rebuffered
        FROM (
          SELECT p, u, c, viewer, started,
            CASE WHEN no_start THEN NULL ELSE least(150 + floor(-ln(1 - random()) * 700)::int, 30000) END AS ttff,
            CASE WHEN no_start OR random() < 0.85 THEN 0 ELSE 1 + floor(random() * 4)::int END AS rebuffers,
            CASE WHEN random() < 0.02 THEN 1 ELSE 0 END AS errors,
            (ARRAY['networkError', 'networkError', 'mediaError', 'offline'])[1 + floor(random() * 4)::int] AS error_type,
            CASE WHEN no_start THEN 0 ELSE floor(random() ^ 4 * 10)::int END AS seeks,
            CASE WHEN no_start THEN 0 ELSE floor(random() ^ 3 * 6)::int END AS quality_changes,
            CASE WHEN no_start THEN NULL ELSE (ARRAY[1080, 720, 720, 480, 360])[1 + floor(random() * 5)::int] END AS height,
            (ARRAY['hls', 'hls', 'hls', 'hls', 'hls', 'hls', 'hls', 'hls', 'mp4', 'webrtc'])[1 + floor(random() * 10)::int] AS mode,
            random() < 0.9 AS exit_sent
          FROM (
            SELECT least(floor(${PLAYBACK_IDS} * random() ^ 3)::int, ${PLAYBACK_IDS - 1}) + 1 AS p,
              width_bucket(random(), $6::float8[]) + 1 AS u,
              width_bucket(random(), $12::float8[]) + 1 AS c,
              substr(md5(floor(random() * $16::int)::text), 1, 22) AS viewer,
              $4::bigint + floor((g - 1 + random()) * $18::float8)::bigint AS started,
              random() < 0.05 AS no_start
            FROM generate_series(1, $17::int) g
          ) a
        ) b
      ) c
    ) d JOIN content USING (p) JOIN agents USING (u) JOIN places USING (c)`;
  // Ids as Castline's player makes them (newViewId: the time the view began, then random bits).
  // The primary key is built once after the load, by a sort (faster than growing it); the other
  // indexes grow at their ends, the views coming in the order they began. Nothing writes views
  // meanwhile (the beacons come after).
  await db().$client`ALTER TABLE views DROP CONSTRAINT views_pkey`;
  // In the order they began, as beacons would have brought them: each chunk the next stretch of time.
  const msPerView = (now - from) / VIEWS;
  for (let done = 0; done < VIEWS; done += LOAD_CHUNK) {
    params[3] = from + Math.round(done * msPerView);
    await db().$client.unsafe(insert, [...params, Math.min(LOAD_CHUNK, VIEWS - done), msPerView] as never[]);
  }
  await db().$client`ALTER TABLE views ADD CONSTRAINT views_pkey PRIMARY KEY (id)`;
  // As autovacuum would after a bulk load: statistics, and the visibility map (index-only scans).
  await db().$client`VACUUM ANALYZE views`;
  // What the beacon writer would have recorded for the roll-up: each view counted whole.
  await db().$client.unsafe(`INSERT INTO view_deltas (${DELTA_COLUMNS}) SELECT ${deltaOf("v", { whole: true })} FROM views v`);
}

const lastRollup = async () =>
  (await db().$client<{ upto: number }[]>`SELECT upto::float8 AS upto FROM progress_marks WHERE name = 'view-rollup:last-run'`)[0]?.upto;
const pendingDeltas = async () => (await db().$client<{ n: number }[]>`SELECT count(*)::int AS n FROM view_deltas`)[0].n;

/**
 * Rolls up every view, timed: the bench's rollUp() unpaced, as often as it gets the lock, until
 * view_deltas is empty (the app's own runs, paced, take their turns too).
 */
async function rollUpEverything(): Promise<{ seconds: number; hours: number }> {
  const t0 = performance.now();
  while ((await pendingDeltas()) > 0) if ((await rollUp(Date.now(), { paced: false })) === undefined) await sleep(50);
  const seconds = (performance.now() - t0) / 1000;
  // As autovacuum would within a minute: the roll-ups' statistics (the queries' plans rely on them).
  await db().$client`ANALYZE view_hours, view_hours_by_playback, view_days_by_playback, view_hours_by_account`;
  // The gigabytes this wrote, flushed now: the loads measured next would otherwise commit while
  // the kernel writes them out (a run began at 1,756 beacons/s flat out, its cores a third busy).
  await db().$client`CHECKPOINT`;
  const [{ hours }] = await db().$client<{ hours: number }[]>`SELECT count(*)::int AS hours FROM view_hours`;
  return { seconds, hours };
}

/** A view playing in part 1, as its player would report it. */
interface LiveView {
  body: {
    playbackId: string;
    viewId: string;
    viewerId: string;
    event: string;
    playedMs: number;
    ttffMs?: number;
    rebufferCount: number;
    rebufferMs: number;
    errorCount: number;
    seekCount: number;
    qualityChanges: number;
    height?: number;
    mode: string;
    timezone: string;
    ended: boolean;
  };
  headers: Record<string, string>;
  began: number;
  /** Beacons sent, and how many it sends in all (the last one its exit). */
  sent: number;
  lifetime: number;
}

/**
 * LIVE_VIEWS views playing at once, each beacon for the next of them in turn: start, first frame,
 * then heartbeats whose totals grow with the time since it began, then its exit, after 3 to 40
 * beacons; a new view takes its place. Viewers come back (a viewer id for every 2 views).
 */
class Audience {
  private views: LiveView[];
  private turn = 0;
  private readonly viewers = Array.from({ length: LIVE_VIEWS / 2 }, () => crypto.randomUUID());

  constructor(private readonly content: Content[]) {
    this.views = Array.from({ length: LIVE_VIEWS }, () => this.newView());
  }

  private newView(): LiveView {
    const [ua] = USER_AGENTS[pick(UA_BOUNDS)];
    const [country, timezone] = PLACES[pick(PLACE_BOUNDS)];
    return {
      body: {
        playbackId: this.content[popularIndex(this.content.length)].playbackId,
        viewId: newViewId(),
        viewerId: this.viewers[Math.floor(Math.random() * this.viewers.length)],
        event: "start",
        playedMs: 0,
        rebufferCount: 0,
        rebufferMs: 0,
        errorCount: 0,
        seekCount: 0,
        qualityChanges: 0,
        mode: Math.random() < 0.9 ? "hls" : "webrtc",
        timezone,
        ended: false,
      },
      headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": ua, ...(country && { [COUNTRY_HEADER]: country }) },
      began: Date.now(),
      sent: 0,
      lifetime: 3 + Math.floor(Math.random() * 38),
    };
  }

  /** The next beacon: its body and headers. */
  next(): { body: string; headers: Record<string, string> } {
    const i = this.turn;
    this.turn = (this.turn + 1) % this.views.length;
    const view = this.views[i];
    const b = view.body;
    if (view.sent === 1) {
      b.event = "firstFrame";
      b.ttffMs = 200 + Math.floor(Math.random() * 1500);
      b.height = 720;
    } else if (view.sent > 1) {
      b.event = "heartbeat";
      b.playedMs = Math.max(b.playedMs, Date.now() - view.began - b.ttffMs!);
      if (Math.random() < 0.05) b.rebufferCount++, (b.rebufferMs += 500);
    }
    if (++view.sent >= view.lifetime) {
      b.event = "exit";
      b.ended = true;
      this.views[i] = this.newView();
    }
    // A copy: autocannon writes its Content-Length into the headers it is given.
    return { body: JSON.stringify(b), headers: { ...view.headers } };
  }
}

interface BeaconFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The 250-ms windows (from the load's start) where a beacon took over SLOW_MS, with the slowest's time (paced loads). */
  stalls?: string[];
  /** The app's roll-ups that committed during the load: when each began and committed, in s from the load's start. */
  rollups?: string[];
  /** CPU seconds per second over the load: the app's process tree, PostgreSQL's, this process's (the load generator). */
  cpu?: { app: number; pg: number; bench: number };
}

type Pids = { app: number; pg?: number };

/** `load`'s figures, with the CPU seconds per second of the app's process tree, PostgreSQL's and this process's meanwhile. */
async function withCpu(pids: Pids | undefined, load: () => Promise<BeaconFigures>): Promise<BeaconFigures> {
  const cpuAt = () => ({
    app: pids ? treeCpuSeconds(pids.app) : 0,
    pg: pids?.pg ? treeCpuSeconds(pids.pg) : 0,
    bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    at: performance.now(),
  });
  const before = cpuAt();
  const figures = await load();
  const after = cpuAt();
  const s = (after.at - before.at) / 1000;
  return { ...figures, cpu: pids && { app: (after.app - before.app) / s, pg: (after.pg - before.pg) / s, bench: (after.bench - before.bench) / s } };
}

/** Flat out: `connections` keep-alive connections, each sending its next beacon once the last is answered (autocannon). */
async function flatOut(url: string, audience: Audience, connections: number, duration: number): Promise<BeaconFigures> {
  const r = await autocannon({
    url,
    connections,
    duration,
    requests: [{ method: "POST", path: "/api/data/views/beacon", setupRequest: (req) => ({ ...req, ...audience.next() }) }],
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

/**
 * Paced: `rate` beacons a second, each sent at its own time (start + i / rate) over up to
 * `sockets` keep-alive connections (node:http), its latency counted from that time, so that a
 * slow answer delays nothing that follows (autocannon's overallRate sends each connection's share
 * in a burst at the start of each second, and waits for answers).
 */
async function paced(url: string, audience: Audience, rate: number, duration: number, agent: http.Agent): Promise<BeaconFigures> {
  const { hostname, port } = new URL(url);
  const latencies: number[] = [];
  const slow: { at: number; ms: number }[] = [];
  let errors = 0;
  const send = (at: number) =>
    new Promise<void>((resolve) => {
      const { body, headers } = audience.next();
      const failed = () => (errors++, resolve());
      const length = String(Buffer.byteLength(body));
      const req = http.request(
        { agent, hostname, port, method: "POST", path: "/api/data/views/beacon", headers: { ...headers, "content-length": length }, timeout: 10_000 },
        (res) => {
          res.resume();
          res.on("end", () => {
            const ms = performance.now() - at;
            if (ms > SLOW_MS) slow.push({ at: at - start, ms });
            if (res.statusCode === 204) latencies.push(ms);
            else errors++;
            resolve();
          });
          res.on("error", failed);
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", failed);
      req.end(body);
    });
  const total = Math.round(rate * duration);
  const answers: Promise<void>[] = [];
  const start = performance.now();
  const rollups = watchRollups(Date.now());
  await new Promise<void>((resolve) => {
    const due = () => {
      const upTo = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (answers.length < upTo) answers.push(send(start + (answers.length * 1000) / rate));
      if (answers.length < total) setTimeout(due, 1);
      else resolve();
    };
    due();
  });
  await Promise.all(answers);
  const seconds = (performance.now() - start) / 1000;
  const { rollups: rolledUp, writer } = await rollups.stop();
  latencies.sort((a, b) => a - b);
  // Where the slow answers were: by the 250-ms window their beacon was due in.
  const windows = new Map<number, number>();
  for (const s of slow) windows.set(Math.floor(s.at / 250), Math.max(windows.get(Math.floor(s.at / 250)) ?? 0, s.ms));
  const stalls = [...windows].map(([w, ms]) => `${((w * 250) / 1000).toFixed(2)} s: ${Math.round(ms)} ms`);
  // What the beacon writer's statements waited on in the stalls' windows (and the window before each).
  const inStalls = new Map<string, number>();
  for (const sample of writer) {
    // The watch began with the load (its `since` a moment after `start`).
    const w = Math.floor(sample.at / 250);
    if (!windows.has(w) && !windows.has(w + 1)) continue;
    for (const wait of sample.waits.length ? sample.waits : ["no statement"]) inStalls.set(wait, (inStalls.get(wait) ?? 0) + 1);
  }
  if (inStalls.size) stalls.push(`the writer then (50-ms samples): ${[...inStalls].map(([w, n]) => `${w} ${n}`).join(", ")}`);
  return {
    rps: latencies.length / seconds,
    p50: Math.round(percentile(latencies, 0.5)),
    p99: Math.round(percentile(latencies, 0.99)),
    errors,
    stalls,
    rollups: rolledUp,
  };
}

/**
 * The app's roll-ups while a load runs, seen by their progress mark (the time each began, written
 * as it commits), polled every 50 ms: when each began and committed, from `since`.
 */
function watchRollups(since: number) {
  const seen: string[] = [];
  const checkpointer = async () =>
    (
      await db().$client<
        { n: number; buffers: number }[]
      >`SELECT (num_timed + num_requested)::int AS n, buffers_written::float8 AS buffers FROM pg_stat_checkpointer`
    )[0];
  const before = checkpointer();
  /** The beacon writer's statements under way at each poll (ms from `since`): what each waited on ("CPU": nothing). */
  const writer: { at: number; waits: string[] }[] = [];
  let last: number | undefined;
  let on = true;
  const polling = (async () => {
    while (on) {
      const mark = await lastRollup();
      if (last !== undefined && mark !== last) seen.push(`${((mark - since) / 1000).toFixed(2)}-${((Date.now() - since) / 1000).toFixed(2)} s`);
      last = mark;
      const at = Date.now() - since;
      const active = await db().$client<{ wait: string }[]>`
        SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait FROM pg_stat_activity
        WHERE state = 'active' AND query LIKE '%INSERT INTO views AS v%' AND pid <> pg_backend_pid()`;
      writer.push({ at, waits: active.map((a) => a.wait) });
      await sleep(50);
    }
  })();
  return {
    stop: async () => {
      on = false;
      await polling;
      const [a, b] = [await before, await checkpointer()];
      return { rollups: [...seen, `checkpoints ${b.n - a.n}, ${b.buffers - a.buffers} buffers written`], writer };
    },
  };
}

/** The embedded PostgreSQL's postmaster (the parent of this process's backend), when it runs on this machine. */
async function postgresPid(): Promise<number | undefined> {
  const [row] = await db().$client<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const backend = procStat(row.pid);
  return backend?.comm === "postgres" ? backend.ppid : undefined;
}

/** Part 1: beacons accepted per second, the app against bare node:http. */
async function beacons(ctx: { appUrl: string; appPid: number; env: NodeJS.ProcessEnv }, content: Content[]) {
  const audience = new Audience(content);
  const bare = await startListening("bench/bare-beacons.ts", [], ctx.env);
  const pids = { app: ctx.appPid, pg: await postgresPid() };
  const [{ n: before }] = await db().$client<{ n: number }[]>`SELECT count(*)::int AS n FROM views`;
  const rows: (string | number)[][] = [];
  const cores = (f: BeaconFigures) => (f.cpu ? `${f.cpu.app.toFixed(2)} / ${f.cpu.pg.toFixed(2)} / ${f.cpu.bench.toFixed(2)}` : "");
  const row = (label: string, app: BeaconFigures, bare: BeaconFigures) => [
    label,
    Math.round(app.rps),
    app.p50,
    app.p99,
    app.errors,
    cores(app),
    Math.round(bare.rps),
    bare.p50,
    bare.p99,
    bare.errors,
    bare.cpu ? bare.cpu.bench.toFixed(2) : "",
    (app.rps / bare.rps).toFixed(2),
  ];
  let app: BeaconFigures;
  let pacedApp: BeaconFigures | undefined;
  let applied = 0;
  let incrementalMs: number;
  const stallLines: string[] = [];
  try {
    // Flat out: JIT, the content cache, the pools warmed first on each side.
    await flatOut(ctx.appUrl, audience, FLAT_OUT_CONNECTIONS, WARM_S);
    app = await withCpu(pids, () => flatOut(ctx.appUrl, audience, FLAT_OUT_CONNECTIONS, DURATION_S));
    // What the app's own runs (every 10 s, paced) do with such a load's changes: until none is left.
    const t0 = performance.now();
    applied = await pendingDeltas();
    while ((await pendingDeltas()) > 0) await sleep(100);
    incrementalMs = performance.now() - t0;
    await flatOut(bare.url, audience, FLAT_OUT_CONNECTIONS, WARM_S);
    const floor = await withCpu({ app: process.pid }, () => flatOut(bare.url, audience, FLAT_OUT_CONNECTIONS, DURATION_S));
    rows.push(row(`flat out, ${FLAT_OUT_CONNECTIONS} connections`, app, floor));
    // Paced, as players send them: each on its own time, many connections; the target rate last.
    for (const rate of PACED_RATES) {
      // The warm-up opens the connections the load then uses (and fills the caches).
      const toApp = new http.Agent({ keepAlive: true, maxSockets: PACED_SOCKETS });
      await paced(ctx.appUrl, audience, rate, WARM_S, toApp);
      pacedApp = await withCpu(pids, () => paced(ctx.appUrl, audience, rate, DURATION_S, toApp));
      toApp.destroy();
      const toBare = new http.Agent({ keepAlive: true, maxSockets: PACED_SOCKETS });
      await paced(bare.url, audience, rate, WARM_S, toBare);
      const pacedFloor = await withCpu({ app: process.pid }, () => paced(bare.url, audience, rate, DURATION_S, toBare));
      toBare.destroy();
      rows.push(row(`paced at ${rate}/s, up to ${PACED_SOCKETS} connections`, pacedApp, pacedFloor));
      stallLines.push(
        `  paced at ${rate}/s, the app's stalls (250-ms windows with a beacon over ${SLOW_MS} ms): ${pacedApp.stalls?.join(", ") || "none"}; its roll-ups (began-committed): ${pacedApp.rollups?.join(", ") || "none"}`,
      );
    }
  } finally {
    bare.stop();
  }
  const [{ n: after }] = await db().$client<{ n: number }[]>`SELECT count(*)::int AS n FROM views`;
  const met = !!pacedApp && pacedApp.rps >= TARGET.beaconsPerS * 0.98 && pacedApp.p99 < TARGET.beaconP99Ms && !pacedApp.errors && app.rps >= TARGET.beaconsPerS;
  printTable(
    `Analytics 1: beacons accepted by one app instance (answered once committed), ${LIVE_VIEWS.toLocaleString("en")} views playing across ${PLAYBACK_IDS} playback ids, ` +
      `${USER_AGENTS.length} User-Agents; the load generator in this process, ${DURATION_S} s each (flat out after ${WARM_S} s of warm-up); ms; ` +
      `cores: app tree / PostgreSQL / load generator; target >= ${TARGET.beaconsPerS}/s with p99 < ${TARGET.beaconP99Ms} ms: ${verdict(met)}`,
    ["load", "app beacons/s", "p50", "p99", "errors", "cores", "bare node:http/s", "p50", "p99", "errors", "generator cores", "app/bare"],
    rows,
  );
  console.log(
    `  ${(after - before).toLocaleString("en")} new views stored; after the flat-out load, its ${applied.toLocaleString("en")} changes not yet applied ` +
      `were applied by the app's own runs (every ${ctx.env.VIEW_ROLLUP_EVERY_S ?? 10} s, paced) within ${(incrementalMs / 1000).toFixed(1)} s`,
  );
  for (const line of stallLines) console.log(line);
}

/** One request at a time, REQUESTS times after WARM_REQUESTS: p50 and p99 in ms, and the size of the answer. */
async function time(run: () => Promise<number>): Promise<{ p50: number; p99: number; items: number }> {
  let items = 0;
  for (let i = 0; i < WARM_REQUESTS; i++) items = await run();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    items = await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), items };
}

/** Part 2: the dashboard's queries through HTTP. */
async function queries(appUrl: string, key: string, userId: string, content: Content[]) {
  const now = Date.now();
  const range = `from=${now - DAYS * DAY_MS}&to=${now}`;
  const top = content[0]; // the most watched playback id (a stream): its answers are the largest
  const asset = content.find((c) => c.kind === "asset")!;
  const get = async (path: string) => {
    const res = await fetch(`${appUrl}/api/${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as unknown;
    return Array.isArray(body) ? body.length : 1;
  };
  // Views not ended and seen in the last 10 minutes beat again now (their players would have): the views playing now.
  const heartbeat = () => db().$client`UPDATE views SET seen_at = ${Date.now()} WHERE user_id = ${userId} AND NOT ended AND seen_at > ${Date.now() - 600_000}`;
  // The dashboard's (the account's page over 30 days: its chart, tiles, breakdowns, top content,
  // views now and usage; a stream's or video's page) and the creator call.
  const cases: [string, string, (() => Promise<unknown>)?][] = [
    ["views now", "data/views/now", heartbeat],
    ["30 days, timeStep=day", `data/views/query?${range}&timeStep=day`],
    ["30 days, totals", `data/views/query?${range}`],
    ["30 days by browser", `data/views/query?${range}&breakdownBy[]=browser`],
    ["30 days by country, timeStep=day", `data/views/query?${range}&breakdownBy[]=country&timeStep=day`],
    ["30 days by playbackId (top content)", `data/views/query?${range}&breakdownBy[]=playbackId`],
    ["top playbackId, 30 days, timeStep=hour", `data/views/query?${range}&playbackId=${top.playbackId}&timeStep=hour`],
    ["top playbackId, 30 days by country", `data/views/query?${range}&playbackId=${top.playbackId}&breakdownBy[]=country`],
    ["creator, streamId (top)", `data/views/query/creator?streamId=${top.id}`],
    ["creator, assetId", `data/views/query/creator?assetId=${asset.id}`],
    ["usage, 30 days", `data/usage/query?${range}`],
  ];

  const rows: (string | number)[][] = [];
  let allMet = true;
  for (const [label, path, before] of cases) {
    await before?.();
    const f = await time(() => get(path));
    allMet &&= f.p99 < TARGET.queryP99Ms;
    rows.push([label, f.items, f.p50.toFixed(1), f.p99.toFixed(1), verdict(f.p99 < TARGET.queryP99Ms)]);
  }
  const select1 = await time(async () => (await db().$client`SELECT 1`).length);
  rows.push(["floor: SELECT 1 (postgres.js)", select1.items, select1.p50.toFixed(1), select1.p99.toFixed(1), ""]);
  const oneStream = await time(() => get(`stream/${top.id}`));
  rows.push(["floor: GET /api/stream/{id}", oneStream.items, oneStream.p50.toFixed(1), oneStream.p99.toFixed(1), ""]);
  printTable(
    `Analytics 2: the viewership API for one account, ${PLAYBACK_IDS} playback ids, ${VIEWS.toLocaleString("en")} views over ${DAYS} days; ` +
      `${REQUESTS} requests each, one at a time, after ${WARM_REQUESTS}; ms; target p99 < ${TARGET.queryP99Ms} ms: ${verdict(allMet)}`,
    ["request", "rows", "p50", "p99", "target"],
    rows,
  );
}

/** Part 3: what the views and their roll-ups take, per million views. */
async function storage() {
  const tables = ["views", "view_hours", "view_hours_by_playback", "view_days_by_playback", "view_hours_by_account"];
  const sizes = await db().$client<{ name: string; rows: number; table: number; indexes: number; total: number }[]>`
    SELECT c.relname AS name, c.reltuples::float8 AS rows, pg_table_size(c.oid)::float8 AS table, pg_indexes_size(c.oid)::float8 AS indexes,
      pg_total_relation_size(c.oid)::float8 AS total
    FROM pg_class c WHERE c.relname IN ${db().$client(tables)} AND c.relkind = 'r'`;
  // Exact counts (reltuples is the last ANALYZE's estimate).
  for (const s of sizes) [{ n: s.rows }] = await db().$client.unsafe<{ n: number }[]>(`SELECT count(*)::float8 AS n FROM ${s.name}`);
  sizes.sort((a, b) => tables.indexOf(a.name) - tables.indexOf(b.name));
  const views = sizes[0].rows;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  const rows = sizes.map((s) => [
    s.name,
    s.rows.toLocaleString("en"),
    (s.rows / views).toFixed(3),
    mb(s.table),
    mb(s.indexes),
    mb(s.total),
    mb(s.total / (views / 1e6)),
  ]);
  const rollups = sizes.slice(1);
  const sum = (f: (s: (typeof sizes)[number]) => number) => rollups.reduce((a, s) => a + f(s), 0);
  rows.push([
    "roll-ups together",
    sum((s) => s.rows).toLocaleString("en"),
    (sum((s) => s.rows) / views).toFixed(3),
    mb(sum((s) => s.table)),
    mb(sum((s) => s.indexes)),
    mb(sum((s) => s.total)),
    mb(sum((s) => s.total) / (views / 1e6)),
  ]);
  printTable(
    `Analytics 3: storage of ${views.toLocaleString("en")} views (pg_table_size, pg_indexes_size, pg_total_relation_size; MB)`,
    ["table", "rows", "rows per view", "table", "indexes", "total", "total per million views"],
    rows,
  );
}

export async function benchAnalytics(ctx: { appUrl: string; appPid: number; env: NodeJS.ProcessEnv }) {
  const user = await createUser({ email: `bench-analytics-${Date.now()}@example.com` });
  const { key } = await createApiKey(user.id, { name: "bench analytics" });
  const now = Date.now();
  const content = await seedContent(user.id, now);
  const t0 = performance.now();
  await loadViews(user.id, content, now);
  const loadS = (performance.now() - t0) / 1000;
  const full = await rollUpEverything();
  console.log(
    `\nAnalytics: ${VIEWS.toLocaleString("en")} views loaded in ${loadS.toFixed(1)} s (INSERT ... SELECT, ${LOAD_CHUNK.toLocaleString("en")} a statement, then VACUUM ANALYZE, then a change each into view_deltas); ` +
      `rolled up in ${full.seconds.toFixed(1)} s (${Math.round(VIEWS / full.seconds).toLocaleString("en")} changes/s; ${full.hours.toLocaleString("en")} view_hours rows)`,
  );
  await beacons(ctx, content);
  await queries(ctx.appUrl, key, user.id, content);
  await storage();
}
