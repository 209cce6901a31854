"use client";

import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { ApiRequestError, call, RawBody } from "@/lib/api/client";
import type { ListQuery } from "@/lib/api/list-query";
import { operations } from "@/lib/api/operations";
import type { Asset, AssetPatch, ExportRequest } from "@/lib/assets/schema";
import type { ClipParams } from "@/lib/clips/schema";
import type { Task } from "@/lib/tasks/schema";

/** Processing and task progress move by the second while someone watches them. */
const ACTIVE_POLL_MS = 2_000;
const PAGE = 50;
/** Exports of one asset are found among this many of the newest tasks (the API has no filter by asset). */
const ASSET_TASKS_WINDOW = 200;

const keys = {
  assets: ["assets"] as const,
  /** Every list of assets, whatever its search, filters and order. */
  assetLists: ["assets", "list"] as const,
  asset: (id: string) => ["assets", id] as const,
  tasks: ["tasks"] as const,
  taskLists: ["tasks", "list"] as const,
  assetTasks: (id: string) => ["tasks", "asset", id] as const,
  textTracks: (id: string) => ["assets", id, "text-tracks"] as const,
};

/**
 * The ABR ladder is still being transcoded: a ready asset has a progress only meanwhile
 * (the list has no renditions; one asset has them).
 */
export const ladderTranscoding = (asset: Pick<Asset, "status" | "renditions">) =>
  asset.status.phase === "ready" && (asset.status.progress !== undefined || Boolean(asset.renditions?.some((r) => r.phase === "transcoding")));

/** Nothing more will happen to an asset without someone asking: failed, or ready with its whole ladder (a rendition is ready once its MP4 is too). */
export const assetSettled = (asset: Pick<Asset, "status" | "renditions">) =>
  asset.status.phase === "failed" || (asset.status.phase === "ready" && !ladderTranscoding(asset));

export const taskActive = (task: Pick<Task, "status">) => task.status.phase === "pending" || task.status.phase === "waiting" || task.status.phase === "running";

// ---- assets

/** The user's assets, searched, filtered and sorted by `listQuery` (the API's `filters` and `order`). */
export function useAssets(listQuery: ListQuery = {}) {
  return useInfiniteQuery({
    queryKey: [...keys.assetLists, listQuery],
    queryFn: ({ pageParam }) => call(operations.listAssets, { query: { ...listQuery, limit: PAGE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    placeholderData: keepPreviousData,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((asset) => !assetSettled(asset))) ? ACTIVE_POLL_MS : false),
  });
}

/**
 * Fetches the asset list again whenever `trigger` changes: uploads from this tab
 * create assets and fill them, which the list cannot know about on its own.
 */
export function useRefreshAssetsOn(trigger: string) {
  const qc = useQueryClient();
  useEffect(() => {
    if (trigger) void qc.invalidateQueries({ queryKey: keys.assetLists });
  }, [qc, trigger]);
}

/** One asset, read once (also by the upload queue: whether a restored upload already finished). */
export const fetchAsset = (id: string) => call(operations.getAsset, { params: { id } });

/** One asset, polled until it is settled (a failed poll keeps polling; a failed first load does not). */
const assetQuery = (id: string) =>
  queryOptions({
    queryKey: keys.asset(id),
    queryFn: () => fetchAsset(id),
    refetchInterval: (query) => (query.state.data && !assetSettled(query.state.data) ? ACTIVE_POLL_MS : false),
  });

export const useAsset = (id: string) => useQuery(assetQuery(id));

/** Several assets by id, each as `useAsset` has it (same cache), in a map by id once loaded. */
export function useAssetsById(ids: readonly string[]): ReadonlyMap<string, Asset> {
  return useQueries({
    queries: ids.map(assetQuery),
    combine: (results) => new Map(results.flatMap((r, i) => (r.data ? [[ids[i], r.data] as const] : []))),
  });
}

/** Creates the asset (phase "waiting") and where to send its file. */
export const requestUpload = (name: string) => call(operations.requestUpload, { body: { name } });

/** Name and viewer access; the asset is fetched again afterwards (the PATCH answer has no renditions). */
export function useUpdateAsset(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: AssetPatch) => call(operations.updateAsset, { params: { id }, body: patch }),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.asset(id) }), qc.invalidateQueries({ queryKey: keys.assetLists })]),
  });
}

/** The dashboard's delete is a takedown: the video stops playing everywhere and its files go. */
export const deleteAsset = (id: string) => call(operations.deleteAsset, { params: { id }, query: { purge: "true" } });

export function useDeleteAsset() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteAsset,
    onSuccess: (_data, id) => {
      qc.removeQueries({ queryKey: keys.asset(id) });
      return qc.invalidateQueries({ queryKey: keys.assetLists });
    },
  });
}

export function useImportAsset() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; name: string }) => call(operations.importAsset, { body: input }),
    onSuccess: ({ asset }) => {
      qc.setQueryData(keys.asset(asset.id), asset);
      void qc.invalidateQueries({ queryKey: keys.tasks });
      return qc.invalidateQueries({ queryKey: keys.assetLists });
    },
  });
}

export function useExportAsset(assetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ExportRequest) => call(operations.exportAsset, { params: { id: assetId }, body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.tasks }),
  });
}

/** A new asset cut from a playable one; times in milliseconds from its start. */
export interface ClipRequest {
  playbackId: string;
  startTime: number;
  endTime: number;
  name?: string;
}

export function useCreateClip() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ClipRequest) => call(operations.createClip, { body: input }),
    onSuccess: ({ asset }) => {
      qc.setQueryData(keys.asset(asset.id), asset);
      void qc.invalidateQueries({ queryKey: keys.tasks });
      return qc.invalidateQueries({ queryKey: keys.assetLists });
    },
  });
}

// ---- captions

export const useTextTracks = (assetId: string) =>
  useQuery({ queryKey: keys.textTracks(assetId), queryFn: () => call(operations.listTextTracks, { params: { id: assetId } }), retry: false });

/** The file goes as the raw body, its type from its extension (.srt is SubRip, anything else WebVTT). */
export function useAddTextTrack(assetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, language, name }: { file: File; language: string; name?: string }) => {
      const type = /\.srt$/i.test(file.name) ? "application/x-subrip" : "text/vtt";
      return call(operations.createTextTrack, { params: { id: assetId }, query: { language, ...(name && { name }) }, body: new RawBody(file, type) });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.textTracks(assetId) }),
  });
}

export function useDeleteTextTrack(assetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (trackId: string) => call(operations.deleteTextTrack, { params: { id: assetId, trackId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.textTracks(assetId) }),
  });
}

// ---- tasks

/** The user's tasks, filtered and sorted by `listQuery` (the API's `filters` and `order`). */
export function useTasks(listQuery: ListQuery = {}) {
  return useInfiniteQuery({
    queryKey: [...keys.taskLists, listQuery],
    queryFn: ({ pageParam }) => call(operations.listTasks, { query: { ...listQuery, limit: PAGE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    placeholderData: keepPreviousData,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some(taskActive)) ? ACTIVE_POLL_MS : false),
  });
}

/**
 * The export tasks of one asset, newest first, polled while one runs. A finished
 * export changes the asset too (its IPFS storage), so the asset is fetched again then.
 */
export function useAssetExports(assetId: string) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: keys.assetTasks(assetId),
    queryFn: async () =>
      (await call(operations.listTasks, { query: { limit: ASSET_TASKS_WINDOW } })).items.filter(
        (task) => task.type === "export" && task.inputAssetId === assetId,
      ),
    refetchInterval: (q) => (q.state.data?.some(taskActive) ? ACTIVE_POLL_MS : false),
  });

  const finished = query.data?.filter((task) => task.status.phase === "completed").length;
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (finished === undefined) return;
    if (seen.current !== undefined && finished > seen.current) {
      void qc.invalidateQueries({ queryKey: keys.asset(assetId), exact: true });
    }
    seen.current = finished;
  }, [qc, assetId, finished]);

  return query;
}

// ---- clips

const clipKeys = { stream: (id: string) => ["assets", "clips", id] as const };

/** While a stream is live its clips may also come from the API (a clip button on the creator's site): the list looks this often. */
const LIVE_CLIPS_POLL_MS = 5_000;

/** A stream's clips (newest first), polled while one is being made, and while the stream is live. */
export function useStreamClips(streamId: string, live: boolean) {
  return useQuery({
    queryKey: clipKeys.stream(streamId),
    queryFn: async () => (await call(operations.listStreamClips, { params: { id: streamId }, query: { limit: 20 } })).items,
    refetchInterval: (query) => (query.state.data?.some((clip) => !assetSettled(clip)) ? ACTIVE_POLL_MS : live ? LIVE_CLIPS_POLL_MS : false),
  });
}

/**
 * "Clip the last N s" of a live session: the N s before its live edge (or all of it, when
 * less is kept), on the stream's own media timeline. The edge is read from the session at
 * the moment of the click, never taken from this browser's clock: the media runs behind
 * the clock when it reached the server slower than real time, by minutes on a busy machine.
 */
export function useClipLastSeconds(stream: { id: string; playbackId?: string }, seconds: number, sessionId?: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const session = sessionId ? await call(operations.getSession, { params: { id: sessionId } }) : undefined;
      const kept = session?.clippable;
      if (!session || !kept || !stream.playbackId) throw new ApiRequestError(400, ["Nothing of this broadcast is stored yet: try again in a few seconds."]);
      return call(operations.createClip, {
        body: {
          playbackId: stream.playbackId,
          sessionId: session.id,
          startTime: Math.max(kept.startTime, kept.endTime - seconds * 1000),
          endTime: kept.endTime,
        },
      });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: clipKeys.stream(stream.id) }),
  });
}

/**
 * A failed clip tried again: a new clip of the same range (its task's), named alike; the
 * failed one, which holds nothing, is removed once the new one is under way.
 */
export function useRetryClip(streamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (clip: Pick<Asset, "id" | "name">) => {
      const filters = JSON.stringify([
        { id: "type", value: "clip" },
        { id: "outputAssetId", value: clip.id },
      ]);
      const [task] = (await call(operations.listTasks, { query: { filters, limit: 1 } })).items;
      const params = task?.params.clip as ClipParams | undefined;
      if (!params) throw new ApiRequestError(404, ["This clip's range is no longer known: make a new clip."]);
      const created = await call(operations.createClip, {
        body: {
          playbackId: params.clipStrategy.playbackId,
          startTime: params.clipStrategy.startTime,
          endTime: params.clipStrategy.endTime,
          ...(params.sessionId ? { sessionId: params.sessionId } : {}),
          name: clip.name,
        },
      });
      await deleteAsset(clip.id);
      return created;
    },
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: clipKeys.stream(streamId) }), qc.invalidateQueries({ queryKey: keys.assetLists })]),
  });
}
