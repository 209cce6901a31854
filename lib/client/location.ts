"use client";

import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";

const subscribe = () => () => {};

/** Where this dashboard is served from; empty during server rendering. */
export function useOrigin(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => "",
  );
}

/** This dashboard's host name; empty during server rendering. */
export function useHostname(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.hostname,
    () => "",
  );
}

/** While no node is available, ask this often so the URL shows as soon as one registers. */
const NO_NODE_POLL_MS = 5_000;

/**
 * The RTMP ingest base URL encoders publish to: the least-loaded healthy media node's,
 * as the server reports it. Null when no node is available, undefined while asking.
 */
export function useIngestUrl(): string | null | undefined {
  const { data } = useQuery({
    queryKey: ["ingest"],
    queryFn: () => call(operations.listIngests),
    staleTime: Infinity,
    refetchInterval: (query) => (query.state.data?.length === 0 ? NO_NODE_POLL_MS : false),
  });
  return data && (data[0]?.ingest ?? null);
}
