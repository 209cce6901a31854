"use client";

import { LinkButton } from "@/components/ui/button";
import { BroadcastIcon } from "@/components/ui/icons";
import { ListCount, ListPage, LoadMore } from "@/components/ui/list-page";
import { useSessions } from "@/lib/client/hooks";
import { BroadcastRow } from "./broadcast-row";

/** Every broadcast of the account, newest first, with its recording. */
export function BroadcastsView() {
  const sessions = useSessions();
  const all = sessions.data?.pages.flatMap((p) => p.items);
  const live = all?.filter((s) => s.isActive).length ?? 0;
  return (
    <ListPage
      title="Broadcasts"
      description="Every time an encoder went live on one of your streams: how long, what arrived, and its recording."
      query={sessions}
      items={all}
      loadingRows={4}
      empty={{
        icon: <BroadcastIcon className="size-6" />,
        title: "No broadcasts yet",
        description: "Go live on a stream with OBS or any RTMP encoder, and each broadcast shows up here.",
        action: <LinkButton href="/streams">Go to streams</LinkButton>,
      }}
    >
      {(items) => (
        <>
          <ListCount count={items.length} more={sessions.hasNextPage} noun="broadcast">
            {live > 0 && <span className="font-medium text-emerald-700">{live} live now</span>}
          </ListCount>
          <div className="overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-zinc-200">
            <ul aria-label="Broadcasts" className="divide-y divide-zinc-100 text-sm">
              {items.map((s) => (
                <BroadcastRow key={s.id} session={s} showStream />
              ))}
            </ul>
          </div>
          <LoadMore list={sessions} />
        </>
      )}
    </ListPage>
  );
}
