import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { assets, streams } from "@/db/schema";
import { ApiError } from "@/lib/api/errors";
import { continentName, countryName } from "./audience";
import { DAY_MS, HOUR_MS, METRICS, summedHistogram, TTFF_BUCKETS_MS } from "./rollup";
import type { Dimension, ViewershipMetric, ViewsQuery } from "./schema";

/** A view is playing now while its player reported within this long (it beats every ~10 s) and has not ended. */
export const NOW_WINDOW_MS = 30_000;
/** Rows one answer may hold (Livepeer's limit too): a finer step or a shorter range for more. */
const MAX_ROWS = 10_000;

/** The column of each dimension, in both the views and their hourly roll-ups (viewerId: the views only). */
const COLUMN: Record<Dimension, string> = {
  playbackId: "playback_id",
  deviceType: "device_type",
  device: "device",
  os: "os",
  browser: "browser",
  browserEngine: "browser_engine",
  continent: "continent",
  country: "country",
  timezone: "timezone",
  viewerId: "viewer_id",
};

/** How a dimension's stored value is shown: names for places (as Livepeer answers), '' left out (unknown). */
const shown = (dimension: Dimension, value: string) =>
  dimension === "country" ? countryName(value) : dimension === "continent" ? continentName(value) : value;

const sql = () => db().$client;

/** A filter on content: its playback id, or a stream's or asset's, which must be the caller's (404 otherwise, as Livepeer). */
async function playbackFilter(userId: string, q: Pick<ViewsQuery, "playbackId" | "assetId" | "streamId">): Promise<string | undefined> {
  if (q.assetId) {
    const asset = await db().query.assets.findFirst({ where: and(eq(assets.id, q.assetId), eq(assets.userId, userId)), columns: { playbackId: true } });
    if (!asset) throw new ApiError(404, [`asset ${q.assetId} not found`]);
    return asset.playbackId;
  }
  if (q.streamId) {
    const stream = await db().query.streams.findFirst({
      where: and(eq(streams.id, q.streamId), eq(streams.userId, userId), isNull(streams.deletedAt)),
      columns: { playbackId: true },
    });
    if (!stream) throw new ApiError(404, [`stream ${q.streamId} not found`]);
    return stream.playbackId;
  }
  return q.playbackId;
}

/**
 * GET /data/views/now: views playing now, of the caller's content, optionally broken down by
 * playback id, device, browser and country.
 */
export async function viewsNow(userId: string, q: { playbackId?: string; creatorId?: string; breakdownBy?: Dimension[] }, now = Date.now()) {
  if (q.creatorId) return []; // Castline keeps no creator ids: no view has one.
  const by = [...new Set(q.breakdownBy ?? [])];
  const params: unknown[] = [userId, now - NOW_WINDOW_MS, Math.floor((now - NOW_WINDOW_MS) / 60_000)];
  // The index holds the minute each view was last seen (db/schema.ts views.seenMinute).
  const where = [`user_id = $1`, `seen_minute >= $3`, `seen_at > $2`, `NOT ended`];
  if (q.playbackId) where.push(`playback_id = $${params.push(q.playbackId)}`);
  const groups = by.map((d) => COLUMN[d]);
  const rows = await sql().unsafe(
    `SELECT ${[...groups, "count(*)::int AS views", "count(*) FILTER (WHERE error_count > 0)::int AS errored"].join(", ")}
     FROM views WHERE ${where.join(" AND ")} ${groups.length ? `GROUP BY ${groups.join(", ")}` : ""} LIMIT ${MAX_ROWS}`,
    params as never[],
  );
  return rows.map((r) => ({ ...dimensionsOf(by, r), viewCount: r.views as number, errorRate: r.views ? (r.errored as number) / (r.views as number) : 0 }));
}

const dimensionsOf = (by: Dimension[], row: Record<string, unknown>) =>
  Object.fromEntries(by.flatMap((d) => (row[COLUMN[d]] ? [[d, shown(d, String(row[COLUMN[d]]))]] : [])));

/**
 * Postgres' date_trunc of a time step, on milliseconds since the epoch, in UTC. Hours and days
 * are whole multiples of their length since the epoch in UTC: worked out in integers, the same
 * instants, without date_trunc's conversions (a query over 30 days may take a row per value and hour).
 */
const stepOf = (column: string, step: NonNullable<ViewsQuery["timeStep"]>) =>
  step === "hour" || step === "day"
    ? `(${column} - ${column} % ${step === "hour" ? HOUR_MS : DAY_MS})::float8`
    : `(extract(epoch FROM date_trunc('${step}', to_timestamp(${column} / 1000.0) AT TIME ZONE 'UTC'))::float8 * 1000)`;

const BY_ACCOUNT = "view_hours_by_account";

/**
 * The hourly roll-up that answers a query, the smallest that keeps what it asks: the account's
 * by dimension (tens of rows an hour, whatever the number of playback ids) for the account's
 * figures by at most one dimension; the playback ids' totals for a playback id's, or by playback
 * id, without other dimensions; else view_hours, which keeps every combination per playback id
 * (lib/analytics/rollup.ts writes the three).
 */
function rollupFor(byPlayback: boolean, groups: string[]) {
  if (!byPlayback) return groups.length <= 1 ? BY_ACCOUNT : "view_hours";
  return groups.every((g) => g === COLUMN.playbackId) ? "view_hours_by_playback" : "view_hours";
}

/**
 * view_hours_by_playback over [from, to) (its hours, `from` taken to its hour) read as the days
 * of view_days_by_playback it covers whole and the hours at its ends, as a table of the same
 * columns (the days' rows named by their first hour): 30 days of a thousand playback ids are
 * 30,000 rows rather than 720,000. Every time step but the hour is a whole number of days.
 */
function byPlaybackInDays(from: number | undefined, to: number | undefined): string {
  const lo = Math.floor((from ?? 0) / HOUR_MS) * HOUR_MS;
  const hi = to ?? Number.MAX_SAFE_INTEGER;
  const firstDay = Math.ceil(lo / DAY_MS) * DAY_MS;
  const endDay = Math.floor(hi / DAY_MS) * DAY_MS;
  if (firstDay >= endDay) return "view_hours_by_playback";
  const columns = `playback_id, user_id, content_id, ${METRICS}`;
  return `(SELECT hour, ${columns} FROM view_hours_by_playback WHERE hour >= ${lo} AND hour < ${firstDay}
    UNION ALL SELECT day AS hour, ${columns} FROM view_days_by_playback WHERE day >= ${firstDay} AND day < ${endDay}
    UNION ALL SELECT hour, ${columns} FROM view_hours_by_playback WHERE hour >= ${endDay} AND hour < ${hi}) AS view_hours_by_playback`;
}

/**
 * GET /data/views/query (and /query/creator with `detailed` false): views of the caller's
 * content over a range, by time step and the dimensions asked. Answered from the hourly roll-ups
 * (a view counts in the hour it began; `from` is taken to its hour), or from the views
 * themselves, within their retention, when broken down by viewer.
 */
export async function viewership(userId: string, q: ViewsQuery, detailed: boolean): Promise<ViewershipMetric[]> {
  if (q.creatorId) return [];
  const playbackId = await playbackFilter(userId, q);
  const by = [...new Set(q.breakdownBy ?? [])];
  const fromViews = by.includes("viewerId");
  const time = fromViews ? "started_at" : "hour";
  const params: unknown[] = [userId];
  const where = ["user_id = $1"];
  if (playbackId) where.push(`playback_id = $${params.push(playbackId)}`);
  if (q.from !== undefined) where.push(`${time} >= $${params.push(fromViews ? q.from : Math.floor(q.from / HOUR_MS) * HOUR_MS)}`);
  if (q.to !== undefined) where.push(`${time} < $${params.push(q.to)}`);
  const groups = by.map((d) => COLUMN[d]);
  const table = fromViews ? "views" : rollupFor(Boolean(playbackId) || groups.includes(COLUMN.playbackId), groups);
  // The account's roll-up has a row per dimension and value: the dimension asked ('' for none) is
  // a filter, its value the group.
  if (table === BY_ACCOUNT) where.push(`dimension = $${params.push(groups[0] ?? "")}`);
  const read = (group: string) => (table === BY_ACCOUNT ? "value" : group);
  const step = q.timeStep ? stepOf(time, q.timeStep) : undefined;
  const keys = [...(step ? [`${step} AS step`] : []), ...groups];
  const metrics = fromViews
    ? `count(*)::int AS views, coalesce(sum(played_ms), 0)::float8 AS played_ms, count(ttff_ms)::int AS ttff_count, coalesce(sum(ttff_ms), 0)::float8 AS ttff_sum_ms,
       NULL::int[] AS ttff_histogram, coalesce(sum(rebuffer_ms), 0)::float8 AS rebuffer_ms, count(*) FILTER (WHERE error_count > 0)::int AS errored,
       count(*) FILTER (WHERE ended AND ttff_ms IS NULL)::int AS exits_before_start`
    : `coalesce(sum(views), 0)::int AS views, coalesce(sum(played_ms), 0)::float8 AS played_ms, coalesce(sum(ttff_count), 0)::int AS ttff_count,
       coalesce(sum(ttff_sum_ms), 0)::float8 AS ttff_sum_ms, ${summedHistogram} AS ttff_histogram, coalesce(sum(rebuffer_ms), 0)::float8 AS rebuffer_ms,
       coalesce(sum(errored), 0)::int AS errored, coalesce(sum(exits_before_start), 0)::int AS exits_before_start`;
  const source = table === "view_hours_by_playback" && q.timeStep !== "hour" ? byPlaybackInDays(q.from, q.to) : table;
  const filtered = `FROM ${source} WHERE ${where.join(" AND ")}`;
  const order = `ORDER BY ${[...(step ? ["step"] : []), "views DESC"].join(", ")}`;
  const rows = await sql().unsafe(
    step && table === "view_hours"
      ? // By time step: view_hours's hours summed first (a row per combination of dimensions in
        // each), so that the step is worked out once per hour rather than once per row; the same
        // sums, added in two goes.
        `SELECT ${[...keys, metrics].join(", ")} FROM (
           SELECT ${["hour", ...groups.map((g) => `${read(g)} AS ${g}`), metrics].join(", ")} ${filtered} GROUP BY ${["hour", ...groups.map(read)].join(", ")}
         ) h GROUP BY ${["step", ...groups].join(", ")} ${order} LIMIT ${MAX_ROWS + 1}`
      : `SELECT ${[...(step ? [`${step} AS step`] : []), ...groups.map((g) => `${read(g)} AS ${g}`), metrics].join(", ")} ${filtered}
         ${keys.length ? `GROUP BY ${[...(step ? ["step"] : []), ...groups.map(read)].join(", ")} ${order}` : ""} LIMIT ${MAX_ROWS + 1}`,
    params as never[],
  );
  if (rows.length > MAX_ROWS)
    throw new ApiError(422, [`the answer would have over ${MAX_ROWS} rows: ask a shorter range, a longer timeStep or fewer breakdowns`]);
  return rows.map((r) => {
    const views = r.views as number;
    const played = (r.played_ms as number) ?? 0;
    const rebuffered = (r.rebuffer_ms as number) ?? 0;
    const ttffCount = r.ttff_count as number;
    const metric: ViewershipMetric = {
      ...(playbackId && { playbackId }),
      ...dimensionsOf(by, r),
      ...(step && { timestamp: Number(r.step) }),
      viewCount: views,
      playtimeMins: played / 60_000,
    };
    if (!detailed) return metric;
    const histogram = r.ttff_histogram as number[] | null;
    return {
      ...metric,
      ...(ttffCount && { ttffMs: (r.ttff_sum_ms as number) / ttffCount }),
      ...(histogram && ttffCount && { ttffP50Ms: quantileOf(histogram, 0.5), ttffP95Ms: quantileOf(histogram, 0.95) }),
      rebufferRatio: played + rebuffered ? rebuffered / (played + rebuffered) : 0,
      errorRate: views ? (r.errored as number) / views : 0,
      exitsBeforeStart: r.exits_before_start as number,
    };
  });
}

/** A quantile of a TTFF histogram, interpolated within its bucket (the last bucket's values read as its lower bound). */
export function quantileOf(histogram: number[], q: number): number {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (!total) return 0;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < histogram.length; i++) {
    if (below + histogram[i] >= rank && histogram[i]) {
      const low = i === 0 ? 0 : TTFF_BUCKETS_MS[i - 1];
      if (i >= TTFF_BUCKETS_MS.length) return low;
      return Math.round(low + ((rank - below) / histogram[i]) * (TTFF_BUCKETS_MS[i] - low));
    }
    below += histogram[i];
  }
  return TTFF_BUCKETS_MS[TTFF_BUCKETS_MS.length - 1];
}

/** GET /data/views/query/total/{playbackId}: every view of a playback id, ever, and its minutes (public, as Livepeer's). */
export async function totalViews(playbackId: string) {
  const [row] = await sql()<{ views: number; played: number }[]>`
    SELECT coalesce(sum(views), 0)::int AS views, coalesce(sum(played_ms), 0)::float8 AS played FROM view_days_by_playback WHERE playback_id = ${playbackId}`;
  return { playbackId, viewCount: row.views, playtimeMins: row.played / 60_000 };
}

/**
 * GET /data/usage/query: the caller's minutes over a range: watched by viewers of their content
 * (delivery), transcoded (their uploads' durations and their broadcasts' source time) and stored
 * now (their assets' durations).
 */
export async function usage(userId: string, q: { from?: number; to?: number; creatorId?: string }) {
  const from = q.from ?? 0;
  const to = q.to ?? Number.MAX_SAFE_INTEGER;
  const [delivery] = await sql()<{ played: number }[]>`
    SELECT coalesce(sum(played_ms), 0)::float8 AS played FROM view_hours_by_account
    WHERE user_id = ${userId} AND dimension = '' AND hour >= ${Math.floor(from / HOUR_MS) * HOUR_MS} AND hour < ${to}`;
  const [transcoded] = await sql()<{ seconds: number }[]>`
    SELECT (SELECT coalesce(sum((video_spec->>'duration')::float8), 0) FROM assets
             WHERE user_id = ${userId} AND phase = 'ready' AND created_at >= ${from} AND created_at < ${to})
         + (SELECT coalesce(sum(source_segments_duration), 0) FROM sessions
             WHERE user_id = ${userId} AND created_at >= ${from} AND created_at < ${to}) AS seconds`;
  const [stored] = await sql()<{ seconds: number }[]>`
    SELECT coalesce(sum((video_spec->>'duration')::float8), 0) AS seconds FROM assets
    WHERE user_id = ${userId} AND phase = 'ready' AND purged_at IS NULL`;
  return {
    UserID: userId,
    ...(q.creatorId && { CreatorID: q.creatorId }),
    DeliveryUsageMins: q.creatorId ? 0 : delivery.played / 60_000,
    TotalUsageMins: q.creatorId ? 0 : transcoded.seconds / 60,
    StorageUsageMins: q.creatorId ? 0 : stored.seconds / 60,
  };
}
