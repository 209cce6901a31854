"use client";

import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { api } from "./api";

const subscribe = () => () => {};

/** Where this dashboard is served from; empty during server rendering. */
export function useOrigin(): string {
  return useSyncExternalStore(subscribe, () => window.location.origin, () => "");
}

/** The RTMP ingest base URL encoders publish to, as the server reports it (its RTMP_PORT). */
export function useIngestUrl(): string {
  const { data } = useQuery({
    queryKey: ["ingest"],
    queryFn: () => api<{ ingest: string }[]>("/api/ingest"),
    staleTime: Infinity,
  });
  return data?.[0]?.ingest ?? "";
}
