"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge, StreamStatus } from "@/components/ui/badge";
import { BroadcastIcon, ChevronRightIcon, EyeIcon, RecordIcon, ShareIcon, VideoIcon } from "@/components/ui/icons";
import { ListCount, ListPage, LoadMore, RowIcon } from "@/components/ui/list-page";
import { ListSelect, ListToolbar, SearchBox } from "@/components/ui/list-toolbar";
import { formatDateTime, timeAgo } from "@/lib/client/format";
import { useStreams } from "@/lib/client/hooks";
import { useListParams } from "@/lib/client/list-params";
import type { Stream } from "@/lib/streams/schema";
import { CreateStreamDialog } from "./create-stream-dialog";

const viewers = new Intl.NumberFormat("en");

const STATUSES = [
  ["", "All"],
  ["live", "Live"],
  ["idle", "Idle"],
  ["recording", "Recording"],
] as const;
const ORDERS = [
  ["", "Newest"],
  ["createdAt-false", "Oldest"],
  ["lastSeen-true", "Last live"],
] as const;

export function StreamsView() {
  const list = useListParams();
  const streams = useStreams(list.apiQuery);
  const status = list.filter("isActive") === true ? "live" : list.filter("isActive") === false ? "idle" : list.filter("record") === true ? "recording" : "";
  const [creating, setCreating] = useState(false);
  const all = streams.data?.pages.flatMap((p) => p.items);
  const live = all?.filter((s) => s.isActive).length ?? 0;

  return (
    <>
      <ListPage
        title="Streams"
        description="Each stream has its own key for your encoder and a playback link for your viewers."
        create={{ label: "New stream", onClick: () => setCreating(true) }}
        query={streams}
        items={all}
        toolbar={{
          list,
          noun: "stream",
          controls: (
            <ListToolbar>
              <SearchBox label="Search streams by name" value={String(list.filter("name") ?? "")} onChange={(name) => list.setFilters({ name })} />
              <ListSelect
                label="Status"
                value={status}
                options={STATUSES}
                onChange={(next) =>
                  list.setFilters({
                    isActive: next === "live" ? true : next === "idle" ? false : undefined,
                    record: next === "recording" ? true : undefined,
                  })
                }
              />
              <ListSelect label="Sort" value={list.order ?? ""} options={ORDERS} onChange={(next) => list.setOrder(next || undefined)} />
            </ListToolbar>
          ),
        }}
        loadingRows={4}
        empty={{
          icon: <BroadcastIcon className="size-6" />,
          title: "Create your first stream",
          description: "Set up a stream, paste its key into OBS or any RTMP encoder, and you are live. Renditions for every connection are made for you.",
        }}
      >
        {(items) => (
          <>
            <ListCount count={items.length} more={streams.hasNextPage} noun="stream">
              {live > 0 && <span className="font-medium text-emerald-700">{live} live now</span>}
            </ListCount>
            <ul aria-label="Streams" className="divide-y divide-zinc-100 overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-zinc-200">
              {items.map((stream) => (
                <StreamRow key={stream.id} stream={stream} />
              ))}
            </ul>
            <LoadMore list={streams} />
          </>
        )}
      </ListPage>

      <CreateStreamDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

function StreamRow({ stream }: { stream: Stream }) {
  const renditions = stream.profiles.map((p) => p.name);
  const targets = stream.multistream.targets.length;
  return (
    <li>
      <Link href={`/streams/${stream.id}`} className="group flex items-center gap-4 px-4 py-4 transition-colors hover:bg-zinc-50 sm:px-5">
        <RowIcon icon={VideoIcon} colors={stream.isActive ? "bg-emerald-50 text-emerald-600" : "bg-zinc-100 text-zinc-500"} hideOnPhones />
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-2">
            <span className="truncate font-medium text-zinc-900">{stream.name}</span>
          </span>
          <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-zinc-500">
            {/* The delivery plane's count of HLS viewers now, as the stream's page shows it; the list polls. */}
            {stream.isActive && stream.viewerCount !== undefined && (
              <Badge tone="green" className="tabular-nums">
                <EyeIcon className="size-3" />
                <span data-testid="stream-viewers">{viewers.format(stream.viewerCount)}</span> watching
              </Badge>
            )}
            {renditions.length ? (
              renditions.map((name) => (
                <Badge key={name} className="font-mono">
                  {name}
                </Badge>
              ))
            ) : (
              <Badge>source only</Badge>
            )}
            {stream.record && (
              <Badge tone="red">
                <RecordIcon className="size-3" /> Recording
              </Badge>
            )}
            {targets > 0 && (
              <Badge tone="indigo">
                <ShareIcon className="size-3" /> {targets} target{targets === 1 ? "" : "s"}
              </Badge>
            )}
          </span>
        </span>
        <span className="hidden shrink-0 text-right text-xs text-zinc-500 sm:block">
          {stream.lastSeen ? (
            <span title={formatDateTime(stream.lastSeen)}>Last live {timeAgo(stream.lastSeen)}</span>
          ) : (
            <span title={formatDateTime(stream.createdAt)}>Created {timeAgo(stream.createdAt)}</span>
          )}
        </span>
        <span className="shrink-0 text-right sm:w-24">
          <StreamStatus isActive={stream.isActive} suspended={stream.suspended} />
        </span>
        <ChevronRightIcon className="hidden size-4 shrink-0 text-zinc-300 group-hover:text-zinc-500 sm:block" />
      </Link>
    </li>
  );
}
