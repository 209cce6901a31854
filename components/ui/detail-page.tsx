"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { createContext, useContext, useState, type ReactNode } from "react";
import { Button, LinkButton } from "./button";
import { Card, CardBody, CardHeader } from "./card";
import { ConfirmDialog, type PendingAction } from "./confirm";
import { CopyField } from "./copy";
import { AlertIcon, ArrowLeftIcon, TrashIcon } from "./icons";
import { ErrorState, LoadingState } from "./states";

/** The list an object's page belongs to: where its back link goes, and what that link says. */
export interface ParentList {
  href: string;
  label: string;
}

/** The object a page shows, for the parts of its frame (the danger zone, the details card). */
const Shown = createContext<{ id: string; noun: string; list: ParentList } | null>(null);

function useShown() {
  const shown = useContext(Shown);
  if (!shown) throw new Error("only inside a DetailPage");
  return shown;
}

/**
 * The frame of one object's page (a stream, a video, a webhook): the way back to its list,
 * then the page once the object has loaded; until then, a spinner, a "not found" or a retry. Once
 * shown, only the object's end (404, 410) takes the page away: a failed refresh (a busy server,
 * a dropped connection) leaves it, with a notice, so that nothing on it (a playing video, a
 * half-filled form) is thrown away.
 */
export function DetailPage<T extends { id: string }>({
  query,
  noun,
  list,
  children,
}: {
  query: UseQueryResult<T, Error>;
  /** What the object is called on screen, in lower case: "video". */
  noun: string;
  list: ParentList;
  children: (data: T) => ReactNode;
}) {
  const { data, error } = query;
  const shown = data !== undefined && !(error && gone(error)) ? data : undefined;
  return (
    <>
      <Link href={list.href} className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-zinc-500 hover:text-zinc-800">
        <ArrowLeftIcon /> {list.label}
      </Link>
      {shown ? (
        <Shown.Provider value={{ id: shown.id, noun, list }}>
          {error && <StaleNotice error={error} onRetry={() => query.refetch()} />}
          {children(shown)}
        </Shown.Provider>
      ) : error ? (
        <ErrorState
          error={error}
          onRetry={() => query.refetch()}
          notFound={{
            title: `${noun.charAt(0).toUpperCase()}${noun.slice(1)} not found`,
            description: "It may have been deleted, or the link is wrong.",
            action: <LinkButton href={list.href}>Back to {list.label.toLowerCase()}</LinkButton>,
          }}
        />
      ) : (
        <LoadingState label={`Loading ${noun}…`} />
      )}
    </>
  );
}

/** The object no longer exists: its page goes, rather than show what it was. */
const gone = (error: Error) => "status" in error && (error.status === 404 || error.status === 410);

/**
 * A refresh that failed while the page shows the object: the page stays (a video playing in it
 * plays on) and says that what it shows may be out of date; the next poll or a retry clears it.
 */
function StaleNotice({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <div
      role="status"
      data-testid="stale-notice"
      className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-amber-50 px-4 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
    >
      <AlertIcon className="size-4 shrink-0 text-amber-600" />
      <span className="min-w-0 flex-1">Could not refresh this page ({error.message}); it shows what was last loaded.</span>
      <button type="button" onClick={onRetry} className="font-medium underline underline-offset-2 hover:text-amber-950">
        Try again
      </button>
    </div>
  );
}

/** The object's name as the page title, its status beside it, a line about it, and page-wide actions. */
export function DetailHeader({ title, status, description, actions }: { title: string; status: ReactNode; description: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          {status}
        </div>
        <p className="mt-1 text-sm text-zinc-500">{description}</p>
      </div>
      {/* Wraps rather than overflow: three actions are wider than a phone. */}
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

/** The cards of an object's page: a wide main column and, from lg up, a narrow one beside it. */
export function DetailColumns({ main, side }: { main: ReactNode; side: ReactNode }) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="min-w-0 space-y-6 lg:col-span-2">{main}</div>
      <div className="min-w-0 space-y-6">{side}</div>
    </div>
  );
}

/** A read-only value on an object's page, with its label above and an optional hint below. */
export function LabeledValue({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-zinc-800">{label}</p>
      {children}
      {hint && <p className="mt-1.5 text-xs text-zinc-500">{hint}</p>}
    </div>
  );
}

/** A details card's facts, two a row. */
export function DetailFacts({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-2 gap-3 text-sm">{children}</dl>;
}

/** One fact of a details card: its term, then its value; `wide` takes the whole row. */
export function DetailFact({ term, wide, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "col-span-2" : undefined}>
      <dt className="text-xs text-zinc-500">{term}</dt>
      <dd className="text-zinc-800">{children}</dd>
    </div>
  );
}

/** The card that starts the side column: the object's ID to copy, then what else there is to know. */
export function DetailsCard({ idLabel, children }: { idLabel: string; children: ReactNode }) {
  const { id } = useShown();
  return (
    <Card>
      <CardHeader title="Details" />
      <CardBody className="space-y-4">
        <LabeledValue label={idLabel}>
          <CopyField value={id} label={idLabel.charAt(0).toLowerCase() + idLabel.slice(1)} />
        </LabeledValue>
        {children}
      </CardBody>
    </Card>
  );
}

/** The last card of an object's page: deleting it ("Delete video"), after asking, then back to its list. */
export function DangerZone({
  description,
  remove,
  children,
}: {
  description: string;
  remove: PendingAction & { mutate(id: string, options: { onSuccess: () => void }): void };
  /** What the confirmation says will happen. */
  children: ReactNode;
}) {
  const { id, noun, list } = useShown();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const action = `Delete ${noun}`;
  return (
    <Card className="ring-red-200">
      <CardBody className="space-y-3">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">{action}</h2>
          <p className="mt-0.5 text-sm text-zinc-500">{description}</p>
        </div>
        <Button variant="dangerGhost" className="-ml-2" onClick={() => setConfirming(true)}>
          <TrashIcon /> {action}
        </Button>
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Delete this ${noun}?`}
        confirmLabel={action}
        action={remove}
        onConfirm={() => remove.mutate(id, { onSuccess: () => router.push(list.href) })}
      >
        {children}
      </ConfirmDialog>
    </Card>
  );
}
