"use client";

import type { ComponentProps, ComponentType, ReactNode } from "react";
import { Button } from "./button";
import { cx } from "./cx";
import { PlusIcon, SearchIcon } from "./icons";
import { EmptyState, ErrorState, PageHeader, SkeletonRows } from "./states";

/**
 * The frame of a page that lists the user's objects (streams, targets, webhooks, API keys,
 * tasks): its header, then placeholder rows while loading, a retry when loading failed, an
 * empty state that says what the objects are for, or the list. The button that creates one
 * sits in the header once something is listed, and in the empty state until then.
 */
export function ListPage<T>({
  title,
  description,
  create,
  query,
  items,
  loadingRows,
  empty,
  toolbar,
  children,
}: {
  title: string;
  description: ReactNode;
  create?: { label: string; onClick: () => void };
  query: { isPending: boolean; error: Error | null; refetch: () => unknown };
  /** Everything loaded so far (every page of a paged list). */
  items: T[] | undefined;
  loadingRows?: number;
  /** What the empty state says; its action defaults to the create button. */
  empty: Omit<ComponentProps<typeof EmptyState>, "className">;
  /** Search and filters above the list, and the page's list parameters (useListParams): while any filter applies, an empty list says nothing matches. */
  toolbar?: { controls: ReactNode; list: { filters: unknown[]; clear: () => void }; noun: string };
  children: (items: T[]) => ReactNode;
}) {
  const filtered = !!toolbar?.list.filters.length;
  const createButton = create && (
    <Button variant="primary" onClick={create.onClick}>
      <PlusIcon /> {create.label}
    </Button>
  );
  return (
    <>
      <PageHeader title={title} description={description} action={items?.length || filtered ? createButton : undefined} />
      {toolbar && (items?.length || filtered) ? toolbar.controls : null}
      {query.isPending ? (
        <SkeletonRows rows={loadingRows} />
      ) : query.error ? (
        <ErrorState error={query.error} onRetry={() => query.refetch()} />
      ) : !items?.length && toolbar && filtered ? (
        <EmptyState
          icon={<SearchIcon className="size-6" />}
          title={`No ${toolbar.noun}s match`}
          description="Nothing in your account matches this search and these filters."
          action={<Button onClick={toolbar.list.clear}>Clear search and filters</Button>}
        />
      ) : !items?.length ? (
        <EmptyState action={createButton} {...empty} />
      ) : (
        children(items)
      )}
    </>
  );
}

/** "12 streams", or "100+ tasks" while more pages exist, and a word on what is going on among them. */
export function ListCount({ count, more, noun, children }: { count: number; more: boolean; noun: string; children?: ReactNode }) {
  return (
    <div className="mb-3 flex items-center gap-2 text-sm text-zinc-500">
      <span>
        {count}
        {more ? "+" : ""} {noun}
        {count === 1 ? "" : "s"}
      </span>
      {children && (
        <>
          <span aria-hidden="true">·</span>
          {children}
        </>
      )}
    </div>
  );
}

/** The button under a paged list that fetches its next page, while there is one. */
export function LoadMore({
  list,
  className = "mt-4",
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  className?: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className={cx("flex justify-center", className)}>
      <Button pending={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
        Load more
      </Button>
    </div>
  );
}

/** The square that starts a row of a list: the object's icon, in the colours of its state. */
export function RowIcon({ icon: Icon, colors, hideOnPhones }: { icon: ComponentType<{ className?: string }>; colors: string; hideOnPhones?: boolean }) {
  return (
    <span className={cx("size-10 shrink-0 items-center justify-center rounded-lg", hideOnPhones ? "hidden sm:flex" : "flex", colors)}>
      <Icon className="size-5" />
    </span>
  );
}
