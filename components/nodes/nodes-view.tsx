"use client";

import type { ReactNode } from "react";
import { ProgressBar } from "@/components/assets/progress-bar";
import { Badge } from "@/components/ui/badge";
import { CopyField } from "@/components/ui/copy";
import { cx } from "@/components/ui/cx";
import { ServerIcon } from "@/components/ui/icons";
import { ListCount, ListPage, RowIcon } from "@/components/ui/list-page";
import { TimeAgo } from "@/components/ui/time-ago";
import { GridList } from "@/components/ui/grid-list";
import { formatDateTime, secondsAgo } from "@/lib/client/format";
import { useMediaNodes } from "@/lib/client/hooks";
import { useHostname } from "@/lib/client/location";
import type { MediaNode } from "@/lib/live/media-node";

/** node · state · ingest URL · sessions · CPU load · last heartbeat */
const COLUMNS = "minmax(0,0.85fr) 5rem minmax(0,1.5fr) 4.5rem 7.5rem 8rem";

const command = (text: string) => <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-700">{text}</code>;

export function NodesView() {
  const nodes = useMediaNodes();
  const lost = nodes.data?.filter((n) => n.state === "lost").length ?? 0;
  const overloaded = nodes.data?.filter((n) => n.state === "overloaded").length ?? 0;

  return (
    <ListPage
      title="Media nodes"
      description="The processes that take RTMP broadcasts and transcode them. Encoders are sent to the least-loaded healthy node (an overloaded one only when none is healthy); a node that stops heartbeating is marked lost and its broadcasts end."
      query={nodes}
      items={nodes.data}
      loadingRows={2}
      empty={{
        icon: <ServerIcon className="size-6" />,
        title: "No media nodes",
        description: (
          <>
            No media node has registered. {command("npm start")} runs one; add more with {command("npm run media")} (see {command("docs/scaling.md")}).
          </>
        ),
      }}
    >
      {(items) => (
        <>
          <ListCount count={items.length} more={false} noun="node">
            {lost > 0 && <span className="font-medium text-red-700">{lost} lost</span>}
            {lost > 0 && overloaded > 0 && <span aria-hidden="true"> · </span>}
            {overloaded > 0 && <span className="font-medium text-amber-800">{overloaded} overloaded</span>}
            {lost === 0 && overloaded === 0 && <span>all healthy</span>}
          </ListCount>
          <GridList
            label="Media nodes"
            columns={COLUMNS}
            from="xl"
            headings={
              <>
                <span>Node</span>
                <span>State</span>
                <span>Ingest URL</span>
                <span>Sessions</span>
                <span>CPU load</span>
                <span className="whitespace-nowrap">Last heartbeat</span>
              </>
            }
          >
            {items.map((node) => (
              <NodeRow key={node.id} node={node} />
            ))}
          </GridList>
        </>
      )}
    </ListPage>
  );
}

/** A card on phones and narrow screens (head, ingest URL, then three figures); a row of the table on wide ones. */
function NodeRow({ node }: { node: MediaNode }) {
  const host = useHostname();
  // As GET /api/ingest says: a node without its own public host is reached at this deployment's host.
  const ingest = node.ingestUrl ?? `rtmp://${host}:${node.rtmpPort}/live`;
  const up = node.state !== "lost";

  return (
    <li
      data-testid="media-node"
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-3 px-4 py-4 sm:px-5 xl:col-span-full xl:grid-cols-subgrid xl:py-3.5"
    >
      <div className="flex min-w-0 items-center gap-3">
        <RowIcon icon={ServerIcon} colors={STATE_COLORS[node.state].icon} />
        <div className="min-w-0">
          <p className="truncate font-mono text-[13px] font-medium text-zinc-900" title={node.id}>
            {node.id}
          </p>
          <p className="truncate text-xs text-zinc-500">
            Started <TimeAgo at={node.startedAt} />
          </p>
        </div>
      </div>
      <div className="justify-self-end xl:justify-self-start">
        <NodeStateBadge node={node} />
      </div>
      <div className="col-span-2 min-w-0 xl:col-span-1">
        <span className="sr-only">Ingest URL</span>
        <CopyField value={ingest} label={`ingest URL of ${node.id}`} testId="node-ingest-url" />
      </div>
      <div className="col-span-2 grid grid-cols-3 gap-x-4 xl:contents">
        <Figure label="Live sessions">
          <span className="text-sm font-medium tabular-nums text-zinc-900">{node.liveSessions}</span>
          {node.laggingSessions > 0 && (
            <span data-testid="node-lagging" className="ml-1 text-xs font-medium whitespace-nowrap text-amber-800">
              {node.laggingSessions} behind
            </span>
          )}
        </Figure>
        <Figure label="CPU load">
          <CpuLoad node={node} />
        </Figure>
        <Figure label="Last heartbeat">
          <span
            data-testid="node-heartbeat"
            title={formatDateTime(node.lastHeartbeatAt)}
            className={cx("text-sm xl:whitespace-nowrap", up ? "text-zinc-600" : "font-medium text-red-700")}
          >
            {secondsAgo(node.lastHeartbeatAt)}
          </span>
        </Figure>
      </div>
    </li>
  );
}

/** A figure of a node: labelled above it on cards; the table's header names it on wide screens (the label stays for screen readers). */
function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <p className="mb-1 text-xs text-zinc-500 xl:sr-only">{label}</p>
      {children}
    </div>
  );
}

const STATE_COLORS = {
  healthy: { tone: "green", dot: "bg-emerald-500", icon: "bg-emerald-50 text-emerald-600" },
  overloaded: { tone: "amber", dot: "bg-amber-500", icon: "bg-amber-50 text-amber-600" },
  lost: { tone: "red", dot: "bg-red-500", icon: "bg-red-50 text-red-600" },
} as const;

/** Why a node is not healthy, in a few words. */
function stateReason(node: MediaNode): string | undefined {
  if (node.lostAt) return `Lost ${formatDateTime(node.lostAt)}`;
  if (node.state !== "overloaded") return undefined;
  const behind = node.laggingSessions > 0 && `${node.laggingSessions} ${node.laggingSessions === 1 ? "broadcast" : "broadcasts"} fell behind real time`;
  return behind || `CPU load ${Math.round(node.cpuLoad * 100)}% of its ${node.cores} ${node.cores === 1 ? "core" : "cores"}`;
}

function NodeStateBadge({ node }: { node: MediaNode }) {
  const colors = STATE_COLORS[node.state];
  return (
    <span title={stateReason(node)}>
      <Badge tone={colors.tone} className="whitespace-nowrap capitalize">
        <span className={cx("size-1.5 rounded-full", colors.dot)} aria-hidden="true" />
        {node.state}
      </Badge>
    </span>
  );
}

/** The one-minute load per core as a share of the node's cores: past 100 % broadcasts queue for CPU. */
function CpuLoad({ node }: { node: MediaNode }) {
  const load = node.cpuLoad;
  const tone = load >= 0.9 ? "red" : load >= 0.7 ? "amber" : "green";
  return (
    <div className="min-w-0">
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="font-medium tabular-nums text-zinc-900">{Math.round(load * 100)}%</span>
        <span className="text-zinc-500">
          {node.cores} {node.cores === 1 ? "core" : "cores"}
        </span>
      </div>
      <ProgressBar value={load} tone={tone} label={`CPU load of ${node.id}`} className="mt-1" />
    </div>
  );
}
