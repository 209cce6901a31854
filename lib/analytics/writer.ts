import { db } from "@/db/client";
import type { Beacon } from "./schema";
import type { Device, Place } from "./audience";
import { DELTA_COLUMNS, NO_CHANGE, deltaOf } from "./rollup";

/** A beacon as stored: its view's row, with who owns the content and where and how it is watched. */
export interface ViewRow extends Device, Place {
  beacon: Beacon;
  userId: string;
  contentId: string;
  /** When this instance received it. */
  at: number;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/** Rows per statement (a JSON parameter of about 600 bytes a row). */
const BATCH_MAX = 2000;

/**
 * Beacons into PostgreSQL by group commit: each is answered once it is committed (nothing a
 * player was told is kept is lost to a crash), and those that arrive while a statement runs go
 * together in the next one, so the rate is PostgreSQL's rows per statement, not its statements
 * per second. A view's beacons in one batch become one row (its latest totals).
 */
export class ViewWriter {
  private pending = new Map<string, ViewRow>();
  private waiters: Waiter[] = [];
  private running: Promise<void> | undefined;

  write(row: ViewRow): Promise<void> {
    const earlier = this.pending.get(row.beacon.viewId);
    this.pending.set(row.beacon.viewId, earlier ? merged(earlier, row) : row);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.running ??= this.drain();
    return done;
  }

  /** Until everything written so far is committed (or failed). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // Let the beacons arriving in this turn of the event loop join the first statement.
    await new Promise((r) => setImmediate(r));
    while (this.pending.size) {
      const rows = [...this.pending.values()];
      const waiters = this.waiters;
      this.pending = new Map();
      this.waiters = [];
      try {
        for (let i = 0; i < rows.length; i += BATCH_MAX) await upsertViews(rows.slice(i, i + BATCH_MAX));
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
    }
    this.running = undefined;
  }
}

/** Two beacons of one view: the later one's state, the higher of each total (they only grow). */
function merged(a: ViewRow, b: ViewRow): ViewRow {
  const x = a.beacon;
  const y = b.beacon;
  return {
    ...b,
    beacon: {
      ...y,
      playedMs: Math.max(x.playedMs, y.playedMs),
      ttffMs: y.ttffMs ?? x.ttffMs,
      rebufferCount: Math.max(x.rebufferCount, y.rebufferCount),
      rebufferMs: Math.max(x.rebufferMs, y.rebufferMs),
      errorCount: Math.max(x.errorCount, y.errorCount),
      errorType: y.errorType ?? x.errorType,
      seekCount: Math.max(x.seekCount, y.seekCount),
      qualityChanges: Math.max(x.qualityChanges, y.qualityChanges),
      ended: x.ended || y.ended,
    },
  };
}

/**
 * One statement for the batch. A view's first beacon makes its row; later ones raise its totals
 * (never lower them: a beacon that arrives late changes nothing) and its last-seen time. The
 * same statement records in view_deltas what each write changed (lib/analytics/rollup.ts
 * deltaOf: the row less its prior_* columns, which the update sets from the row it replaces). What a
 * view watched is capped by the time since it began (a minute's grace): a player cannot claim
 * more. A beacon naming another playback id or viewer than its view's first one is ignored.
 */
async function upsertViews(rows: ViewRow[]) {
  // One parameter for the batch: its rows as JSON, typed by the record definition below.
  const batch = rows.map(({ beacon: b, ...r }) => ({
    id: b.viewId,
    playback_id: b.playbackId,
    user_id: r.userId,
    content_id: r.contentId,
    viewer_id: b.viewerId,
    at: r.at,
    browser: r.browser,
    browser_engine: r.browserEngine,
    os: r.os,
    device_type: r.deviceType,
    device: r.device,
    country: r.country,
    continent: r.continent,
    timezone: b.timezone ?? "",
    mode: b.mode ?? "",
    ttff_ms: b.ttffMs,
    played_ms: b.playedMs,
    rebuffer_count: b.rebufferCount,
    rebuffer_ms: b.rebufferMs,
    error_count: b.errorCount,
    error_type: b.errorType,
    seek_count: b.seekCount,
    quality_changes: b.qualityChanges,
    height: b.height,
    ended: b.ended,
  }));
  const sql = db().$client;
  await sql`
    WITH written AS (
    INSERT INTO views AS v (id, playback_id, user_id, content_id, viewer_id, started_at, seen_at, browser, browser_engine, os, device_type, device,
      country, continent, timezone, mode, ttff_ms, played_ms, rebuffer_count, rebuffer_ms, error_count, error_type, seek_count, quality_changes, height, ended)
    SELECT id, playback_id, user_id, content_id, viewer_id, at, at, browser, browser_engine, os, device_type, device,
      country, continent, timezone, mode, ttff_ms, least(played_ms, 60000), rebuffer_count, least(rebuffer_ms, 60000), error_count, error_type, seek_count, quality_changes, height, ended
    FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS b(id text, playback_id text, user_id text, content_id text, viewer_id text, at bigint,
      browser text, browser_engine text, os text, device_type text, device text, country text, continent text, timezone text, mode text,
      ttff_ms int, played_ms bigint, rebuffer_count int, rebuffer_ms bigint, error_count int, error_type text, seek_count int, quality_changes int, height int, ended bool)
    ON CONFLICT (id) DO UPDATE SET
      seen_at = greatest(v.seen_at, excluded.seen_at),
      mode = CASE WHEN excluded.mode = '' THEN v.mode ELSE excluded.mode END,
      ttff_ms = coalesce(v.ttff_ms, excluded.ttff_ms),
      played_ms = greatest(v.played_ms, least(excluded.played_ms, excluded.seen_at - v.started_at + 60000)),
      rebuffer_count = greatest(v.rebuffer_count, excluded.rebuffer_count),
      rebuffer_ms = greatest(v.rebuffer_ms, least(excluded.rebuffer_ms, excluded.seen_at - v.started_at + 60000)),
      error_count = greatest(v.error_count, excluded.error_count),
      error_type = coalesce(excluded.error_type, v.error_type),
      seek_count = greatest(v.seek_count, excluded.seek_count),
      quality_changes = greatest(v.quality_changes, excluded.quality_changes),
      height = coalesce(excluded.height, v.height),
      ended = v.ended OR excluded.ended,
      prior_played_ms = v.played_ms, prior_ttff_ms = v.ttff_ms, prior_rebuffer_ms = v.rebuffer_ms, prior_error_count = v.error_count, prior_ended = v.ended
    WHERE v.playback_id = excluded.playback_id AND v.viewer_id = excluded.viewer_id
    RETURNING *
    )
    INSERT INTO view_deltas (${sql.unsafe(DELTA_COLUMNS)})
    SELECT * FROM (SELECT ${sql.unsafe(deltaOf("written"))} FROM written) AS d (${sql.unsafe(DELTA_COLUMNS)}) WHERE NOT ${sql.unsafe(NO_CHANGE)}`;
}
