"use client";

import Link from "next/link";
import { useMemo } from "react";
import { LinkButton } from "@/components/ui/button";
import { ListChecksIcon } from "@/components/ui/icons";
import { ListCount, ListPage, LoadMore } from "@/components/ui/list-page";
import { ListSelect, ListToolbar } from "@/components/ui/list-toolbar";
import { TimeAgo } from "@/components/ui/time-ago";
import { GridList } from "@/components/ui/grid-list";
import { taskActive, useAssets, useTasks } from "@/lib/client/asset-hooks";
import { useListParams } from "@/lib/client/list-params";
import type { Task } from "@/lib/tasks/schema";
import { TaskHeading, TaskPhaseBadge, TaskProgress } from "./task-status";

/** task · asset · status · created */
const COLUMNS = "minmax(0,1.4fr) minmax(0,1fr) 11rem 7rem";

const TYPES = [
  ["", "All"],
  ["import", "Uploads and imports"],
  ["export", "Exports"],
  ["clip", "Clips"],
  ["transcode-file", "Transcodes"],
] as const;
const PHASES = [
  ["", "All"],
  ["running", "Running"],
  ["pending", "Pending"],
  ["completed", "Completed"],
  ["failed", "Failed"],
  ["cancelled", "Cancelled"],
] as const;
const ORDERS = [
  ["", "Newest"],
  ["createdAt-false", "Oldest"],
] as const;

export function TasksView() {
  const list = useListParams();
  const tasks = useTasks(list.apiQuery);
  const all = tasks.data?.pages.flatMap((p) => p.items);
  const running = all?.filter(taskActive).length ?? 0;
  const assetNames = useAssetNames();

  return (
    <ListPage
      title="Tasks"
      description="The work behind your videos: processing uploads, importing from URLs, exporting to IPFS or your own storage."
      query={tasks}
      items={all}
      toolbar={{
        list,
        noun: "task",
        controls: (
          <ListToolbar>
            <ListSelect
              label="Type"
              value={String(list.filter("type") ?? "")}
              options={TYPES}
              onChange={(type) => list.setFilters({ type: type || undefined })}
            />
            <ListSelect
              label="Status"
              value={String(list.filter("status.phase") ?? "")}
              options={PHASES}
              onChange={(phase) => list.setFilters({ "status.phase": phase || undefined })}
            />
            <ListSelect label="Sort" value={list.order ?? ""} options={ORDERS} onChange={(next) => list.setOrder(next || undefined)} />
          </ListToolbar>
        ),
      }}
      loadingRows={4}
      empty={{
        icon: <ListChecksIcon className="size-6" />,
        title: "No tasks yet",
        description: "Uploading, importing or exporting a video starts a task. Follow its progress here.",
        action: <LinkButton href="/assets">Go to assets</LinkButton>,
      }}
    >
      {(items) => (
        <>
          <ListCount count={items.length} more={tasks.hasNextPage} noun="task">
            {running > 0 && (
              <span className="inline-flex items-center gap-1.5 font-medium text-indigo-700">
                <span className="relative flex size-2" aria-hidden="true">
                  <span className="absolute inline-flex size-full animate-ping rounded-full bg-indigo-400 opacity-60 [animation-duration:2s]" />
                  <span className="relative inline-flex size-2 rounded-full bg-indigo-500" />
                </span>
                {running} in progress
              </span>
            )}
          </ListCount>
          <GridList
            label="Tasks"
            columns={COLUMNS}
            wideGaps
            headings={
              <>
                <span>Task</span>
                <span>Asset</span>
                <span>Status</span>
                <span>Created</span>
              </>
            }
          >
            {items.map((task) => (
              <TaskRow key={task.id} task={task} assetNames={assetNames} />
            ))}
          </GridList>
          <LoadMore list={tasks} />
        </>
      )}
    </ListPage>
  );
}

/** Names of the newest assets, so rows can say which video a task is about; older ones show their id. */
function useAssetNames(): Map<string, string> {
  const assets = useAssets();
  const pages = assets.data?.pages;
  return useMemo(() => new Map((pages ?? []).flatMap((p) => p.items).map((a) => [a.id, a.name])), [pages]);
}

function TaskRow({ task, assetNames }: { task: Task; assetNames: Map<string, string> }) {
  const assetId = task.outputAssetId ?? task.inputAssetId;
  const { phase, errorMessage } = task.status;

  return (
    <li data-testid="task-row" className="flex flex-col gap-2 px-4 py-3.5 sm:px-5 md:col-span-full md:grid md:grid-cols-subgrid md:items-center">
      <TaskHeading task={task}>{phase === "failed" && errorMessage && <p className="mt-1 text-xs text-red-700">{errorMessage}</p>}</TaskHeading>
      {/* One line under the task on small screens; three columns of the table from md up. */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 pl-12 md:contents">
        <div className="min-w-0 max-w-full text-sm">
          {assetId ? (
            <Link href={`/assets/${assetId}`} className="block truncate font-medium text-indigo-600 hover:text-indigo-500" title={assetId}>
              {assetNames.get(assetId) ?? <span className="font-mono text-xs">{assetId}</span>}
            </Link>
          ) : (
            <span className="text-zinc-400">—</span>
          )}
        </div>
        <div className="min-w-0 grow md:grow-0">
          <TaskPhaseBadge status={task.status} />
          <TaskProgress task={task} className="mt-2" />
        </div>
        <TimeAgo at={task.createdAt} className="text-xs text-zinc-500" />
      </div>
    </li>
  );
}
