import { z } from "zod";

/**
 * What players report (POST /api/data/views/beacon) and what the viewership API answers, in
 * Livepeer's shapes (the `livepeer` SDK's metrics.* models: no nulls, `viewCount` an integer).
 */

/** A player's own random ids: letters, digits, `-` and `_`, 8 to 64 of them (a UUID fits). */
const RandomId = z.string().regex(/^[\w-]{8,64}$/, "8 to 64 letters, digits, - or _");
/** A count a real view cannot pass. */
const Count = z.number().int().min(0).max(100_000);
/** Milliseconds within a week: no view plays, stalls or waits longer. */
const Duration = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3600 * 1000);

/**
 * A view as its player sees it now: totals since the view began, not changes, so a lost beacon
 * loses nothing and a repeated one counts once. Sent at the start, on the first frame, every
 * ~10 s while playing, on an error, and at the exit (with `sendBeacon`).
 */
export const Beacon = z
  .strictObject({
    playbackId: z.string().regex(/^[\w-]{1,64}$/, "a playback id"),
    /** Random, new for each view (each load of a source in a player). */
    viewId: RandomId,
    /** Random, kept by the browser (localStorage) across views: never derived from anything about the person. */
    viewerId: RandomId,
    /** What sent this beacon. */
    event: z.enum(["start", "firstFrame", "heartbeat", "rebuffer", "error", "seek", "quality", "exit"]),
    /** Media time watched, ms (paused, stalled and seeking time apart). */
    playedMs: Duration.default(0),
    /** From play intent to the first frame shown, ms; absent until then. */
    ttffMs: Duration.optional(),
    rebufferCount: Count.default(0),
    /** Time stalled after the first frame, ms. */
    rebufferMs: Duration.default(0),
    errorCount: Count.default(0),
    /** The last error's type as the player names it (e.g. "networkError", "mediaError", "offline", "accessControl"). */
    errorType: z.string().max(64).optional(),
    seekCount: Count.default(0),
    /** Rendition changes. */
    qualityChanges: Count.default(0),
    /** The rendition's height now, pixels. */
    height: z.number().int().min(0).max(8640).optional(),
    /** How it plays: HLS, WebRTC, or a file. */
    mode: z.enum(["hls", "webrtc", "mp4"]).optional(),
    /** The viewer's time zone (IANA, from Intl). */
    timezone: z.string().max(64).optional(),
    /** The view ended: the player was closed or moved to another source. */
    ended: z.boolean().default(false),
  })
  .meta({ id: "Beacon" });
export type Beacon = z.infer<typeof Beacon>;

/** The dimensions views are broken down by, as Livepeer names them. */
export const Dimension = z.enum(["playbackId", "deviceType", "device", "os", "browser", "browserEngine", "continent", "country", "timezone", "viewerId"]);
export type Dimension = z.infer<typeof Dimension>;

/** Livepeer's other breakdowns: not collected (Castline keeps no creator ids), refused with a 422 that says so. */
const NOT_COLLECTED = ["cpu", "subdivision", "geohash", "creatorId"];

/** `breakdownBy[]=a&breakdownBy[]=b` (the SDK), or `breakdownBy=a,b` by hand. */
const breakdownOf = <T extends readonly [string, ...string[]]>(allowed: T) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.split(",") : v),
    z.array(
      z.string().superRefine((value, ctx) => {
        if ((allowed as readonly string[]).includes(value)) return;
        ctx.addIssue({
          code: "custom",
          message: NOT_COLLECTED.includes(value) ? `"${value}" is not collected by Castline` : `must be one of ${allowed.join(", ")}`,
        });
      }),
    ),
  ) as unknown as z.ZodOptional<z.ZodArray<z.ZodEnum<{ [K in T[number]]: K }>>>;

/** An instant as the SDK sends it: ISO 8601 (RFC 3339), or milliseconds since the epoch. */
const Instant = z
  .string()
  .transform((s, ctx) => {
    const value = /^\d{1,15}$/.test(s) ? Number(s) : Date.parse(s);
    if (Number.isNaN(value) || !/^\d{1,15}$|^\d{4}-\d\d-\d\dT/.test(s)) {
      ctx.addIssue({ code: "custom", message: "an RFC 3339 time or milliseconds since the epoch" });
      return z.NEVER;
    }
    return value;
  })
  .meta({ type: "string", description: "RFC 3339, or milliseconds since the epoch" });

const TimeStep = z.enum(["hour", "day", "week", "month", "year"]);

export const RealtimeQuery = z.strictObject({
  playbackId: z.string().max(64).optional(),
  creatorId: z.string().max(256).optional(),
  breakdownBy: breakdownOf(["playbackId", "device", "browser", "country"] as const).optional(),
});

export const ViewsQuery = z.strictObject({
  playbackId: z.string().max(64).optional(),
  assetId: z.string().max(64).optional(),
  streamId: z.string().max(64).optional(),
  creatorId: z.string().max(256).optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  timeStep: TimeStep.optional(),
  breakdownBy: breakdownOf(Dimension.options as [Dimension, ...Dimension[]]).optional(),
});
export type ViewsQuery = z.infer<typeof ViewsQuery>;

export const CreatorViewsQuery = ViewsQuery.omit({ playbackId: true });

export const UsageQuery = z.strictObject({
  from: Instant.optional(),
  to: Instant.optional(),
  timeStep: z.enum(["hour", "day"]).optional(),
  creatorId: z.string().max(256).optional(),
  breakdownBy: breakdownOf(["creatorId"] as const).optional(),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

const dimensionFields = {
  playbackId: z.string().optional(),
  creatorId: z.string().optional(),
  viewerId: z.string().optional(),
  device: z.string().optional(),
  deviceType: z.string().optional(),
  os: z.string().optional(),
  browser: z.string().optional(),
  browserEngine: z.string().optional(),
  continent: z.string().optional(),
  country: z.string().optional(),
  timezone: z.string().optional(),
};

export const RealtimeViewershipMetric = z
  .object({
    playbackId: z.string().optional(),
    device: z.string().optional(),
    browser: z.string().optional(),
    country: z.string().optional(),
    viewCount: z.number().int().describe("views playing now (a beacon within the last 30 s, not ended)"),
    errorRate: z.number().describe("the share of them that met an error, 0 to 1"),
  })
  .meta({ id: "RealtimeViewershipMetric" });

export const ViewershipMetric = z
  .object({
    ...dimensionFields,
    timestamp: z.number().optional().describe("the start of the time step, ms since the epoch (with timeStep)"),
    viewCount: z.number().int().describe("views: play intents (played, stalled or failed)"),
    playtimeMins: z.number().describe("minutes watched"),
    ttffMs: z.number().optional().describe("mean time to first frame, ms"),
    ttffP50Ms: z.number().optional().describe("median time to first frame, ms (Castline's)"),
    ttffP95Ms: z.number().optional().describe("95th percentile time to first frame, ms (Castline's)"),
    rebufferRatio: z.number().optional().describe("time stalled over time watched and stalled, 0 to 1"),
    errorRate: z.number().optional().describe("the share of views that met an error, 0 to 1"),
    exitsBeforeStart: z.number().optional().describe("views left before their first frame"),
  })
  .meta({ id: "ViewershipMetric" });
export type ViewershipMetric = z.infer<typeof ViewershipMetric>;

export const PublicViewership = z
  .object({ playbackId: z.string().optional(), viewCount: z.number().int(), playtimeMins: z.number() })
  .meta({ id: "PublicViewershipMetric" });

/** Livepeer's usage metric, its keys as Livepeer writes them. */
export const UsageMetric = z
  .object({
    UserID: z.string(),
    CreatorID: z.string().optional(),
    DeliveryUsageMins: z.number().describe("minutes watched by viewers of this account's content"),
    TotalUsageMins: z.number().describe("minutes of video transcoded (uploads and live broadcasts)"),
    StorageUsageMins: z.number().describe("minutes of video stored now"),
  })
  .meta({ id: "UsageMetric" });
