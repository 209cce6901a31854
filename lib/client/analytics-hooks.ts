"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import type { Dimension, ViewershipMetric } from "@/lib/analytics/schema";
import { call, type Page } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";

/** Views are rolled up every 10 s: a page left open shows new ones within half a minute. */
const VIEWERSHIP_POLL_MS = 20_000;
/** Views playing now change by the beacon (every ~10 s). */
const NOW_POLL_MS = 10_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The ranges a creator picks from: the last so many hours or days, in steps of an hour or a day
 * (the API's own steps, so each bar is one row of its answer). Day steps are UTC days, as the
 * API cuts them.
 */
export const RANGES = {
  "24h": { name: "Last 24 hours", label: "24 h", words: "the last 24 hours", stepMs: HOUR_MS, steps: 24, timeStep: "hour" },
  "7d": { name: "Last 7 days", label: "7 d", words: "the last 7 days", stepMs: HOUR_MS, steps: 7 * 24, timeStep: "hour" },
  "30d": { name: "Last 30 days", label: "30 d", words: "the last 30 days", stepMs: DAY_MS, steps: 30, timeStep: "day" },
  "90d": { name: "Last 90 days", label: "90 d", words: "the last 90 days", stepMs: DAY_MS, steps: 90, timeStep: "day" },
} as const;
export type RangeKey = keyof typeof RANGES;
const DEFAULT_RANGE: RangeKey = "7d";

/** A range as the charts draw it: whole steps, the last one the step now is in. */
export interface ViewWindow {
  range: RangeKey;
  from: number;
  to: number;
  stepMs: number;
  timeStep: "hour" | "day";
  /** Each step's start, oldest first. */
  steps: number[];
}

export function windowOf(range: RangeKey, now = Date.now()): ViewWindow {
  const { stepMs, steps, timeStep } = RANGES[range];
  const to = Math.floor(now / stepMs) * stepMs + stepMs;
  const from = to - steps * stepMs;
  return { range, from, to, stepMs, timeStep, steps: Array.from({ length: steps }, (_, i) => from + i * stepMs) };
}

/** The range picked, kept in the page's URL (`?range=30d`) so a view of it can be shared and reloaded. */
export function useViewRange(): [RangeKey, (range: RangeKey) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const asked = params.get("range");
  const range = asked && asked in RANGES ? (asked as RangeKey) : DEFAULT_RANGE;
  const setRange = useCallback(
    (next: RangeKey) => {
      const query = new URLSearchParams(params);
      if (next === DEFAULT_RANGE) query.delete("range");
      else query.set("range", next);
      const text = query.toString();
      router.replace(text ? `${pathname}?${text}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return [range, setRange];
}

/** Whose views: one stream's, one asset's, or (neither) the whole account's. */
export type ViewsOf = { streamId: string } | { assetId: string } | Record<string, never>;

const keys = {
  all: ["viewership"] as const,
  of: (of: ViewsOf) => ["viewership", JSON.stringify(of)] as const,
};

const rangeQuery = (w: ViewWindow) => ({ from: String(w.from), to: String(w.to) });

/** Views, watch time and quality of experience in each step of the window. */
export function useViewershipSeries(of: ViewsOf, w: ViewWindow) {
  return useQuery({
    queryKey: [...keys.of(of), "series", w.from, w.timeStep],
    queryFn: () => call(operations.getViewership, { query: { ...of, ...rangeQuery(w), timeStep: w.timeStep } }),
    refetchInterval: VIEWERSHIP_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/**
 * The window's totals: one row (the API answers one, of zeros, when there were no views), its
 * TTFF percentiles over every view in it, which the steps' cannot be added up to.
 */
export function useViewershipTotals(of: ViewsOf, w: ViewWindow) {
  return useQuery({
    queryKey: [...keys.of(of), "totals", w.from, w.timeStep],
    queryFn: async (): Promise<ViewershipMetric> =>
      (await call(operations.getViewership, { query: { ...of, ...rangeQuery(w) } }))[0] ?? { viewCount: 0, playtimeMins: 0 },
    refetchInterval: VIEWERSHIP_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/**
 * Every view ever, asked only when the window has none: an empty window then says whether
 * nobody has watched yet or nobody watched lately.
 */
export function useLifetimeViews(of: ViewsOf, enabled: boolean) {
  return useQuery({
    queryKey: [...keys.of(of), "lifetime"],
    queryFn: async () => (await call(operations.getViewership, { query: { ...of } }))[0]?.viewCount ?? 0,
    enabled,
    refetchInterval: VIEWERSHIP_POLL_MS,
  });
}

/**
 * The window's views by one dimension, most viewed first. One dimension a request: the rows
 * of several would be their combinations, and percentiles and ratios cannot be added back up.
 */
export function useViewershipBreakdown(of: ViewsOf, w: ViewWindow, dimension: Dimension) {
  return useQuery({
    queryKey: [...keys.of(of), "by", dimension, w.from, w.timeStep],
    queryFn: () => call(operations.getViewership, { query: { ...of, ...rangeQuery(w), breakdownBy: [dimension] } }),
    refetchInterval: VIEWERSHIP_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** Views of the account's content playing now (a beacon within 30 s), from the players themselves. */
export function useViewsNow() {
  return useQuery({
    queryKey: [...keys.all, "now"],
    queryFn: async () => (await call(operations.getRealtimeViewership, {})).reduce((n, row) => n + row.viewCount, 0),
    refetchInterval: NOW_POLL_MS,
  });
}

/** Minutes delivered and transcoded over the window, and stored now. */
export function useUsage(w: ViewWindow) {
  return useQuery({
    queryKey: [...keys.all, "usage", w.from, w.timeStep],
    queryFn: () => call(operations.getUsage, { query: rangeQuery(w) }),
    refetchInterval: VIEWERSHIP_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** What a playback id plays, for its name and the link to its page. */
export interface Content {
  kind: "stream" | "asset";
  id: string;
  name: string;
}

/** Each list is read this many at a time (the API's most) until every id asked for is found. */
const NAMES_PAGE = 1000;

/**
 * The streams and assets behind `playbackIds` (the top content's), found in the account's
 * lists; an id found in neither is content deleted since it was watched.
 */
export function useContentNames(playbackIds: string[]) {
  const wanted = [...new Set(playbackIds)].sort();
  return useQuery({
    queryKey: [...keys.all, "names", wanted],
    queryFn: async () => {
      const found = new Map<string, Content>();
      const missing = () => wanted.some((id) => !found.has(id));
      /** Reads a list page by page while an id is still missing. */
      const search = async <T>(page: (cursor?: string) => Promise<Page<T>>, add: (item: T) => void) => {
        let cursor: string | undefined;
        do {
          const { items, nextCursor } = await page(cursor);
          items.forEach(add);
          cursor = nextCursor;
        } while (cursor && missing());
      };
      await search(
        (cursor) => call(operations.listStreams, { query: { streamsonly: "1", limit: NAMES_PAGE, cursor } }),
        (s) => s.playbackId && found.set(s.playbackId, { kind: "stream", id: s.id, name: s.name }),
      );
      if (missing()) {
        await search(
          (cursor) => call(operations.listAssets, { query: { limit: NAMES_PAGE, cursor } }),
          (a) => found.set(a.playbackId, { kind: "asset", id: a.id, name: a.name }),
        );
      }
      return found;
    },
    enabled: wanted.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
