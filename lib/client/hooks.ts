"use client";

import { keepPreviousData, useInfiniteQuery, type InfiniteData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { call, type Page } from "@/lib/api/client";
import type { ListQuery } from "@/lib/api/list-query";
import { operations } from "@/lib/api/operations";
import type { Session } from "@/lib/sessions/schema";
import type { Profile, Stream, StreamPatch } from "@/lib/streams/schema";
import type { TargetPatch } from "@/lib/targets/schema";
import type { WebhookEvent } from "@/lib/webhooks/events";

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

// ---- API keys

export function useApiKeys() {
  return useQuery({ queryKey: keys.apiKeys, queryFn: () => call(operations.listApiKeys) });
}

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; allowedOrigins?: string[] }) => call(operations.createApiKey, { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(operations.revokeApiKey, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

// ---- streams

const STREAM_PAGE = 50;

/** The user's streams, searched, filtered and sorted by `listQuery` (the API's `filters` and `order`). */
export function useStreams(listQuery: ListQuery = {}) {
  return useInfiniteQuery({
    queryKey: [...keys.streamLists, listQuery],
    queryFn: ({ pageParam }) => call(operations.listStreams, { query: { ...listQuery, streamsonly: "1", limit: STREAM_PAGE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
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
    const sessions = qc.getQueryData<InfiniteData<Page<Session>>>(keys.sessions(id))?.pages.flatMap((p) => p.items);
    const busy =
      stream?.isActive ||
      sessions?.some((s) => s.isActive || s.recordingStatus === "waiting") ||
      (stream?.lastSeen !== undefined && Date.now() - stream.lastSeen < SETTLING_MS);
    return busy ? BROADCAST_POLL_MS : QUIET_POLL_MS;
  };
  const stream = useQuery({
    queryKey: keys.stream(id),
    queryFn: () => call(operations.getStream, { params: { id } }),
    refetchInterval: pollMs,
  });
  // Polling refetches every loaded page from the newest, so "Load more" pages stay contiguous.
  const sessions = useInfiniteQuery({
    queryKey: keys.sessions(id),
    queryFn: ({ pageParam }) => call(operations.listStreamSessions, { params: { id }, query: { limit: SESSION_PAGE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
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
    queryFn: ({ pageParam }) => call(operations.listSessions, { query: { limit: SESSION_PAGE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: STREAM_POLL_MS,
  });
}

/** One broadcast: fast while it is live or its recording is on its way. */
export function useSession(id: string) {
  return useQuery({
    queryKey: keys.session(id),
    queryFn: () => call(operations.getSession, { params: { id } }),
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
    queryFn: () => call(operations.getSessionHealth, { params: { id: id! } }),
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
    mutationFn: (input: NewStream) => call(operations.createStream, { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.streams }),
  });
}

/** Switches and target lists answer at once; the server's copy replaces the guess afterwards. */
export function useUpdateStream(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: StreamPatch) => call(operations.updateStream, { params: { id }, body: patch }),
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
    mutationFn: () => call(operations.rotateStreamKey, { params: { id } }),
    onSuccess: (stream) => {
      qc.setQueryData(keys.stream(id), stream);
      return qc.invalidateQueries({ queryKey: keys.streams });
    },
  });
}

export function useDeleteStream() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(operations.deleteStream, { params: { id } }),
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
    queryFn: async () => (await call(operations.listTargets, { query: { limit: 1000 } })).items,
  });
}

/** Each target's push while the stream is live (connecting, connected, retrying...), polled as the broadcast is. */
export function useMultistreamStatus(streamId: string, live: boolean) {
  return useQuery({
    queryKey: keys.multistreamStatus(streamId),
    queryFn: () => call(operations.getMultistreamStatus, { params: { id: streamId } }),
    enabled: live,
    refetchInterval: live ? BROADCAST_POLL_MS : false,
  });
}

export function useCreateTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name?: string; url: string }) => call(operations.createTarget, { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.targets }),
  });
}

export function useUpdateTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TargetPatch }) => call(operations.updateTarget, { params: { id }, body: patch }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.targets }),
  });
}

export function useDeleteTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(operations.deleteTarget, { params: { id } }),
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
    queryFn: async () => (await call(operations.listWebhooks, { query: { limit: 1000 } })).items,
    refetchInterval: WEBHOOK_POLL_MS,
  });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: keys.webhook(id), queryFn: () => call(operations.getWebhook, { params: { id } }) });
}

export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookForm) => call(operations.createWebhook, { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.webhooks }),
  });
}

export function useUpdateWebhook(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookForm) => call(operations.replaceWebhook, { params: { id }, body: input }),
    onSuccess: (webhook) => {
      qc.setQueryData(keys.webhook(id), webhook);
      return qc.invalidateQueries({ queryKey: keys.webhooks, exact: true });
    },
  });
}

export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(operations.deleteWebhook, { params: { id } }),
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
    queryFn: ({ pageParam }) => call(operations.listDeliveries, { params: { id: webhookId }, query: { limit: DELIVERY_PAGE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
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
    mutationFn: (event: WebhookEvent) => call(operations.testWebhook, { params: { id: webhookId }, body: { event } }),
  });
}

/** Queues the same event again (same event id, fresh signature); it is logged as a new attempt. */
export function useResendDelivery(webhookId: string) {
  return useMutation({
    mutationFn: (deliveryId: string) => call(operations.resendDelivery, { params: { id: webhookId, logId: deliveryId } }),
  });
}

// ---- media nodes

/** Nodes heartbeat every 2 s: the page follows load, sessions and a node going quiet closely. */
const NODE_POLL_MS = 5_000;

/** The deployment's media nodes, healthy ones first (the API's order). */
export function useMediaNodes() {
  return useQuery({
    queryKey: keys.mediaNodes,
    queryFn: () => call(operations.listMediaNodes),
    refetchInterval: NODE_POLL_MS,
  });
}
