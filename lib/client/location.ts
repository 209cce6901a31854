"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** Where this dashboard is served from; empty during server rendering. */
export function useOrigin(): string {
  return useSyncExternalStore(subscribe, () => window.location.origin, () => "");
}

/** The RTMP ingest base URL encoders publish to: this host, port 1935, app "live". */
export function useIngestUrl(): string {
  const hostname = useSyncExternalStore(subscribe, () => window.location.hostname, () => "");
  return hostname ? `rtmp://${hostname}:1935/live` : "";
}
