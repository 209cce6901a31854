import { performance } from "node:perf_hooks";
import { and, desc, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { streams } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/service";
import { newId, newPlaybackId, newStreamKey } from "@/lib/ids";
import { createUser } from "@/lib/users/service";
import { startListening } from "./listening";

/**
 * Lists of a large account: 10,000 streams of one user (inserted in batches, as the
 * service would write them), then one request at a time through HTTP: a page as it
 * is, searched by name, filtered, sorted by last seen. Beside them in the same run, two
 * floors: the bare SELECT of a page through postgres.js, and plain node:http answering
 * one stream (API-key lookup and one row, bench/bare-server.ts).
 */
const STREAMS = Number(process.env.BENCH_LIST_STREAMS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 200);
const WORDS = ["cooking", "gaming", "music", "news", "church", "sports", "studio", "lecture"];

async function seed(userId: string) {
  const now = Date.now();
  for (let start = 0; start < STREAMS; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, STREAMS - start) }, (_, j) => {
      const i = start + j;
      return {
        id: newId(),
        userId,
        name: `${WORDS[i % WORDS.length]} ${i}`,
        streamKey: newStreamKey(),
        playbackId: newPlaybackId(),
        record: i % 3 === 0,
        isActive: i % 100 === 0,
        lastSeen: i % 4 === 0 ? undefined : now - ((i * 7919) % STREAMS) * 60_000,
        createdAt: now - (STREAMS - i) * 1000,
      };
    });
    await db().insert(streams).values(batch);
  }
  // As autovacuum would after a bulk insert: statistics, and the trigram index's pending entries merged
  // (until then the planner prices that index high and scans the table for rare names).
  await db().execute("VACUUM ANALYZE streams");
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: at(50), p99: at(99) };
}

async function time(run: () => Promise<number>): Promise<{ p50: number; p99: number; items: number }> {
  let items = 0;
  for (let i = 0; i < 20; i++) items = await run(); // warm-up: JIT, pools, plans
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    items = await run();
    samples.push(performance.now() - t0);
  }
  return { ...percentiles(samples), items };
}

export async function benchLists(ctx: { appUrl: string; env: NodeJS.ProcessEnv }) {
  const user = await createUser({ email: `bench-lists-${Date.now()}@example.com` });
  const { key } = await createApiKey(user.id, { name: "bench lists" });
  const seeding = performance.now();
  await seed(user.id);
  const seedS = (performance.now() - seeding) / 1000;

  const q = (filters: unknown) => `filters=${encodeURIComponent(JSON.stringify(filters))}`;
  const cases: [string, string][] = [
    ["page of 100, newest first", "stream?streamsonly=1"],
    ["page of 100, with sessions", "stream"],
    ["page of 20", "stream?streamsonly=1&limit=20"],
    ["search: common word", `stream?streamsonly=1&limit=20&${q([{ id: "name", value: "cook" }])}`],
    ["search: one stream", `stream?streamsonly=1&limit=20&${q([{ id: "name", value: "music 4242" }])}`],
    ["search: nothing", `stream?streamsonly=1&limit=20&${q([{ id: "name", value: "zebra" }])}`],
    ["filter: live (1%)", `stream?streamsonly=1&limit=20&${q([{ id: "isActive", value: true }])}`],
    [
      "filter: recording, searched",
      `stream?streamsonly=1&limit=20&${q([
        { id: "record", value: true },
        { id: "name", value: "news" },
      ])}`,
    ],
    ["sort: last seen", "stream?streamsonly=1&limit=20&order=lastSeen-true"],
    ["sort: last seen, page 50", ""],
  ];
  // a cursor deep into the list sorted by last seen: keyset paging costs the same on any page
  let deep = "stream?streamsonly=1&limit=20&order=lastSeen-true";
  for (let i = 0; i < 49; i++) {
    const link = (await fetch(`${ctx.appUrl}/api/${deep}`, { headers: { authorization: `Bearer ${key}` } })).headers.get("link");
    deep = /<\/api\/([^>]+)>/.exec(link!)![1];
  }
  cases[cases.length - 1][1] = deep;

  const rows: [string, { p50: number; p99: number; items: number }][] = [];
  for (const [label, path] of cases) {
    rows.push([
      label,
      await time(async () => {
        const res = await fetch(`${ctx.appUrl}/api/${path}`, { headers: { authorization: `Bearer ${key}` } });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return ((await res.json()) as unknown[]).length;
      }),
    ]);
  }
  const bareSelect = await time(async () => {
    const page = await db()
      .select()
      .from(streams)
      .where(and(eq(streams.userId, user.id), isNull(streams.deletedAt)))
      .orderBy(desc(streams.createdAt), desc(streams.id))
      .limit(101);
    return page.length - 1;
  });
  const bare = await startListening("bench/bare-server.ts", [], ctx.env);
  const oneStream = (await db().select({ id: streams.id }).from(streams).where(eq(streams.userId, user.id)).limit(1))[0].id;
  let bareHttp;
  try {
    bareHttp = await time(async () => {
      const res = await fetch(`${bare.url}/api/stream/${oneStream}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`bare server: ${res.status}`);
      await res.json();
      return 1;
    });
  } finally {
    bare.stop();
  }

  console.log(`\nLists (${STREAMS} streams of one user, seeded in ${seedS.toFixed(1)} s; ${REQUESTS} requests each, one at a time; ms)`);
  console.log("request                        | items | p50   | p99");
  const line = (label: string, f: { p50: number; p99: number; items: number }) =>
    console.log(`${label.padEnd(30)} | ${String(f.items).padStart(5)} | ${f.p50.toFixed(1).padStart(5)} | ${f.p99.toFixed(1).padStart(5)}`);
  for (const [label, f] of rows) line(label, f);
  line("floor: bare SELECT of 100", bareSelect);
  line("floor: node:http, one stream", bareHttp);
  return rows;
}
