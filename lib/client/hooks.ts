"use client";

import { keepPreviousData, useInfiniteQuery, type InfiniteData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import type { ApiKey, ApiKeyCreated } from "@/lib/api-keys/schema";
import type { MediaNode } from "@/lib/live/media-node";
import type { Session, SessionHealth } from "@/lib/sessions/schema";
import type { Profile, Stream, StreamPatch } from "@/lib/streams/schema";
import type { MultistreamStatus, Target, TargetPatch } from "@/lib/targets/schema";
import type { QueuedDelivery, Webhook, WebhookCreated, WebhookDelivery } from "@/lib/webhooks/schema";
import type { WebhookEvent } from "@/lib/webhooks/events";
import { api, apiPage, type ApiPage } from "./api";

/** Live status changes without the user doing anything: lists and details poll. */
const STREAM_POLL_MS = 10_000;

const keys = {
  apiKeys: ["api-keys"] as const,
  streams: ["streams"] as const,
  /** Every list of streams, whatever its search, filters and order. */
  streamLists: ["streams", "list"] as const,
  stream: (id: string) => ["streams", id] as const,
  sessions: (id: string) => ["streams", id, "sessions"] as const,
  /** The account's broadcasts, and one broadcast with its ingest health. */
  allSessions: ["sessions"] as const,
  session: (id: string) => ["sessions", id] as const,
  sessionHealth: (id: string) => ["sessions", id, "health"] as const,
  targets: ["targets"] as const,
  multistreamStatus: (id: string) => ["streams", id, "multistream-status"] as const,
  webhooks: ["webhooks"] as const,
  webhook: (id: string) => ["webhooks", id] as const,
  deliveries: (id: string) => ["webhooks", id, "deliveries"] as const,
  mediaNodes: ["media-nodes"] as const,
};

const enc = encodeURIComponent;

// ---- API keys

export function useApiKeys() {
  return useQuery({ queryKey: keys.apiKeys, queryFn: () => api<ApiKey[]>("/api/api-key") });
}

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; allowedOrigins?: string[] }) => api<ApiKeyCreated>("/api/api-key", "POST", input),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/api-key/${enc(id)}`, "DELETE"),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

// ---- streams

const STREAM_PAGE = 50;

/** The user's streams, searched, filtered and sorted by `listQuery` (the API's `filters` and `order`). */
export function useStreams(listQuery = "") {
  return useInfiniteQuery({
    queryKey: [...keys.streamLists, listQuery],
    queryFn: ({ pageParam }) => apiPage<Stream>(pageParam),
    initialPageParam: `/api/stream?streamsonly=1&limit=${STREAM_PAGE}${listQuery && `&${listQuery}`}`,
    getNextPageParam: (last) => last.next,
    refetchInterval: STREAM_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** An open stream page asks this often while a broadcast is on, starting, or has just ended… */
const BROADCAST_POLL_MS = 2_000;
/** …and this often otherwise, so a broadcast that starts shows within seconds. */
const QUIET_POLL_MS = 5_000;
/** After a broadcast ends its session and recording settle for a while (the recording then waits, for a reconnect). */
const SETTLING_MS = 30_000;

/**
 * What an open stream page shows of broadcasts: the stream (live or not, health) and
 * its sessions (each with its own live and recording state). Both are asked for on the
 * same beat, fast while something happens; and when the stream's broadcast moves (goes
 * live, idle, or reports in) the sessions are fetched at once, so the header and the
 * list of broadcasts never tell different stories for longer than one request.
 */
export function useStreamBroadcasts(id: string) {
  const qc = useQueryClient();
  const pollMs = () => {
    const stream = qc.getQueryData<Stream>(keys.stream(id));
    const sessions = qc.getQueryData<InfiniteData<ApiPage<Session>>>(keys.sessions(id))?.pages.flatMap((p) => p.items);
    const busy =
      stream?.isActive ||
      sessions?.some((s) => s.isActive || s.recordingStatus === "waiting") ||
      (stream?.lastSeen !== undefined && Date.now() - stream.lastSeen < SETTLING_MS);
    return busy ? BROADCAST_POLL_MS : QUIET_POLL_MS;
  };
  const stream = useQuery({
    queryKey: keys.stream(id),
    queryFn: () => api<Stream>(`/api/stream/${enc(id)}`),
    refetchInterval: pollMs,
  });
  // Polling refetches every loaded page from the newest, so "Load more" pages stay contiguous.
  const sessions = useInfiniteQuery({
    queryKey: keys.sessions(id),
    queryFn: ({ pageParam }) => apiPage<Session>(pageParam),
    initialPageParam: `/api/stream/${enc(id)}/sessions?limit=${SESSION_PAGE}`,
    getNextPageParam: (last) => last.next,
    refetchInterval: pollMs,
  });

  const beat = stream.data && `${stream.data.isActive}:${stream.data.lastSeen ?? 0}`;
  const seen = useRef(beat);
  useEffect(() => {
    if (!beat || beat === seen.current) return;
    const first = seen.current === undefined;
    const liveChanged = !first && beat.split(":")[0] !== seen.current!.split(":")[0];
    seen.current = beat;
    if (first) return;
    void qc.invalidateQueries({ queryKey: keys.sessions(id), exact: true });
    // The streams list shows live state too: fresh when the user goes back to it.
    if (liveChanged) void qc.invalidateQueries({ queryKey: keys.streamLists });
  }, [qc, id, beat]);

  return { stream, sessions };
}

const SESSION_PAGE = 20;

/** Every broadcast of the account, newest first; polled, as broadcasts start and recordings settle on their own. */
export function useSessions() {
  return useInfiniteQuery({
    queryKey: keys.allSessions,
    queryFn: ({ pageParam }) => apiPage<Session>(pageParam),
    initialPageParam: `/api/session?limit=${SESSION_PAGE}`,
    getNextPageParam: (last) => last.next,
    refetchInterval: STREAM_POLL_MS,
  });
}

/** One broadcast: fast while it is live or its recording is on its way. */
export function useSession(id: string) {
  return useQuery({
    queryKey: keys.session(id),
    queryFn: () => api<Session>(`/api/session/${enc(id)}`),
    refetchInterval: (query) => {
      const s = query.state.data;
      return s?.isActive || s?.recordingStatus === "waiting" ? BROADCAST_POLL_MS : false;
    },
  });
}

/** Health is folded into 5 s buckets: asking more often would show nothing new. */
const HEALTH_POLL_MS = 5_000;

/** A broadcast's ingest health over time, refreshing while it is live. */
export function useSessionHealth(id: string | undefined, live: boolean) {
  return useQuery({
    // Asked again when the broadcast ends: its last readings and its end close the graph.
    queryKey: [...keys.sessionHealth(id ?? ""), live],
    queryFn: () => api<SessionHealth>(`/api/session/${enc(id!)}/health`),
    enabled: !!id,
    refetchInterval: live ? HEALTH_POLL_MS : false,
  });
}

export interface NewStream {
  name: string;
  profiles: Profile[];
  record: boolean;
}

export function useCreateStream() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NewStream) => api<Stream>("/api/stream", "POST", input),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.streams }),
  });
}

/** Switches and target lists answer at once; the server's copy replaces the guess afterwards. */
export function useUpdateStream(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: StreamPatch) => api(`/api/stream/${enc(id)}`, "PATCH", patch),
    onMutate: async (patch) => {
      await qc.cancelQueries({ queryKey: keys.stream(id) });
      const previous = qc.getQueryData<Stream>(keys.stream(id));
      if (previous) qc.setQueryData<Stream>(keys.stream(id), { ...previous, ...(patch as Partial<Stream>) });
      return { previous };
    },
    onError: (_err, _patch, context) => {
      if (context?.previous) qc.setQueryData(keys.stream(id), context.previous);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: keys.streams }),
  });
}

/** A new stream key: the old one stops working, and a broadcast on it is cut. */
export function useRotateStreamKey(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<Stream>(`/api/stream/${enc(id)}/rotate-key`, "POST"),
    onSuccess: (stream) => {
      qc.setQueryData(keys.stream(id), stream);
      return qc.invalidateQueries({ queryKey: keys.streams });
    },
  });
}

export function useDeleteStream() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/stream/${enc(id)}`, "DELETE"),
    onSuccess: (_data, id) => {
      qc.removeQueries({ queryKey: keys.stream(id) });
      return qc.invalidateQueries({ queryKey: keys.streamLists });
    },
  });
}

// ---- multistream targets

export function useTargets() {
  return useQuery({
    queryKey: keys.targets,
    queryFn: async () => (await apiPage<Target>("/api/multistream/target?limit=1000")).items,
  });
}

/** Each target's push while the stream is live (connecting, connected, retrying...), polled as the broadcast is. */
export function useMultistreamStatus(streamId: string, live: boolean) {
  return useQuery({
    queryKey: keys.multistreamStatus(streamId),
    queryFn: () => api<MultistreamStatus>(`/api/stream/${enc(streamId)}/multistream/status`),
    enabled: live,
    refetchInterval: live ? BROADCAST_POLL_MS : false,
  });
}

export function useCreateTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name?: string; url: string }) => api<Target>("/api/multistream/target", "POST", input),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.targets }),
  });
}

export function useUpdateTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TargetPatch }) =>
      api(`/api/multistream/target/${enc(id)}`, "PATCH", patch),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.targets }),
  });
}

export function useDeleteTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/multistream/target/${enc(id)}`, "DELETE"),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.targets }),
  });
}

// ---- webhooks

export interface WebhookForm {
  name: string;
  url: string;
  events: WebhookEvent[];
}

/** A webhook's health changes as deliveries happen in the background: the list polls. */
const WEBHOOK_POLL_MS = 10_000;

export function useWebhooks() {
  return useQuery({
    queryKey: keys.webhooks,
    queryFn: async () => (await apiPage<Webhook>("/api/webhook?limit=1000")).items,
    refetchInterval: WEBHOOK_POLL_MS,
  });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: keys.webhook(id), queryFn: () => api<Webhook>(`/api/webhook/${enc(id)}`) });
}

export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookForm) => api<WebhookCreated>("/api/webhook", "POST", input),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.webhooks }),
  });
}

export function useUpdateWebhook(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookForm) => api<Webhook>(`/api/webhook/${enc(id)}`, "PUT", input),
    onSuccess: (webhook) => {
      qc.setQueryData(keys.webhook(id), webhook);
      return qc.invalidateQueries({ queryKey: keys.webhooks, exact: true });
    },
  });
}

export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Webhook>(`/api/webhook/${enc(id)}`, "DELETE"),
    onSuccess: (_data, id) => {
      qc.removeQueries({ queryKey: keys.webhook(id) });
      return qc.invalidateQueries({ queryKey: keys.webhooks, exact: true });
    },
  });
}

// ---- webhook deliveries

const DELIVERY_PAGE = 20;

/**
 * A webhook's delivery attempts, newest first, polled every `pollMs` so retries and
 * resends show up on their own. A refetch walks the loaded pages again from the newest,
 * so "Load more" pages stay contiguous while attempts arrive. A new attempt also
 * changes the webhook's status, so the webhook and the list are refreshed with it.
 */
export function useWebhookDeliveries(webhookId: string, pollMs: number) {
  const qc = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: keys.deliveries(webhookId),
    queryFn: ({ pageParam }) => apiPage<WebhookDelivery>(pageParam),
    initialPageParam: `/api/webhook/${enc(webhookId)}/log?limit=${DELIVERY_PAGE}`,
    getNextPageParam: (last) => last.next,
    refetchInterval: pollMs,
    staleTime: 0,
  });

  const pages = query.data?.pages;
  const deliveries = useMemo(() => {
    // An attempt logged between two page fetches could otherwise show twice.
    const byId = new Map((pages ?? []).flatMap((page) => page.items).map((d) => [d.id, d]));
    return [...byId.values()];
  }, [pages]);

  const newest = deliveries[0]?.id;
  useEffect(() => {
    if (!newest) return;
    void qc.invalidateQueries({ queryKey: keys.webhook(webhookId), exact: true });
    void qc.invalidateQueries({ queryKey: keys.webhooks, exact: true });
  }, [qc, webhookId, newest]);

  return { ...query, deliveries };
}

export function useSendTestEvent(webhookId: string) {
  return useMutation({
    mutationFn: (event: WebhookEvent) => api<QueuedDelivery>(`/api/webhook/${enc(webhookId)}/test`, "POST", { event }),
  });
}

/** Queues the same event again (same event id, fresh signature); it is logged as a new attempt. */
export function useResendDelivery(webhookId: string) {
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api<QueuedDelivery>(`/api/webhook/${enc(webhookId)}/log/${enc(deliveryId)}/resend`, "POST"),
  });
}

// ---- media nodes

/** Nodes heartbeat every 2 s: the page follows load, sessions and a node going quiet closely. */
const NODE_POLL_MS = 5_000;

/** The deployment's media nodes, healthy ones first (the API's order). */
export function useMediaNodes() {
  return useQuery({
    queryKey: keys.mediaNodes,
    queryFn: () => api<MediaNode[]>("/api/media-node"),
    refetchInterval: NODE_POLL_MS,
  });
}
