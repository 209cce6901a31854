import type { ReactNode } from "react";
import { Button } from "./button";
import { cx } from "./cx";
import { AlertIcon } from "./icons";
import { Spinner } from "./spinner";

/** What a page or a card says at its top: its title, a line about it, and what can be done there. */
export interface Heading {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}

export function PageHeader({ title, description, action }: Heading) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-zinc-500">{description}</p>}
      </div>
      {action && <div className="flex shrink-0 items-center gap-2">{action}</div>}
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
}: {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cx("flex flex-col items-center rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-14 text-center", className)}>
      <div className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600 ring-8 ring-indigo-50/50">{icon}</div>
      <h3 className="mt-4 text-base font-semibold text-zinc-900">{title}</h3>
      <p className="mt-1 max-w-sm text-sm text-zinc-500">{description}</p>
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}

export function LoadingState({ label = "Loading…", compact }: { label?: string; compact?: boolean }) {
  return (
    <div role="status" className={cx("flex items-center justify-center gap-2 text-sm text-zinc-500", compact ? "py-8" : "py-16")}>
      <Spinner className="size-5 text-indigo-600" />
      {label}
    </div>
  );
}

/** Placeholder rows while a list loads, shaped like the rows that will come. */
export function SkeletonRows({ rows = 3 }: { rows?: number }) {
  return (
    <div role="status" aria-label="Loading" className="divide-y divide-zinc-100 rounded-xl bg-white ring-1 ring-zinc-200">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex animate-pulse items-center gap-4 px-5 py-4">
          <div className="size-9 rounded-lg bg-zinc-100" />
          <SkeletonLines className="flex-1" widths={["w-1/3", "w-1/4"]} />
          <div className="h-5 w-14 rounded-full bg-zinc-100" />
        </div>
      ))}
    </div>
  );
}

/** Placeholder cards while a grid of videos loads: a picture, a name and a line about it. */
export function SkeletonCards({ cards = 4 }: { cards?: number }) {
  return (
    <div role="status" aria-label="Loading" className="grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-4">
      {Array.from({ length: cards }, (_, i) => (
        <div key={i} className="animate-pulse overflow-hidden rounded-xl bg-white ring-1 ring-zinc-200">
          <div className="aspect-video bg-zinc-100" />
          <SkeletonLines className="p-3.5" widths={["w-2/3", "w-1/3"]} />
        </div>
      ))}
    </div>
  );
}

/** A title and a line of text, greyed out. */
function SkeletonLines({ className, widths: [title, line] }: { className: string; widths: [string, string] }) {
  return (
    <div className={cx("space-y-2", className)}>
      <div className={cx("h-3 rounded bg-zinc-200", title)} />
      <div className={cx("h-2.5 rounded bg-zinc-100", line)} />
    </div>
  );
}

/** A failed load: a 404 reads as "not found" with a way back, anything else offers a retry. */
export function ErrorState({
  error,
  onRetry,
  notFound,
}: {
  error: Error;
  onRetry?: () => void;
  notFound?: { title: string; description: string; action: ReactNode };
}) {
  if (notFound && "status" in error && error.status === 404) {
    return <EmptyState icon={<AlertIcon className="size-6" />} {...notFound} />;
  }
  return (
    <div role="alert" className="flex flex-col items-center rounded-xl bg-white px-6 py-12 text-center ring-1 ring-red-200">
      <div className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
        <AlertIcon className="size-6" />
      </div>
      <h3 className="mt-4 text-base font-semibold text-zinc-900">Something went wrong</h3>
      <p className="mt-1 max-w-md text-sm whitespace-pre-line text-zinc-500">{error.message}</p>
      {onRetry && (
        <Button className="mt-5" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

/** The server's messages for a failed form or action, each on its own line. */
export function FormErrors({ error, className }: { error: Error | null | undefined; className?: string }) {
  if (!error) return null;
  const raw = "messages" in error && Array.isArray(error.messages) ? (error.messages as string[]) : [error.message];
  // The API writes messages in lower case; a sentence on its own reads better capitalised,
  // while "field.path: problem" keeps the path as the API spells it.
  const messages = raw.map((m) => (/^[\w.]+: /.test(m) ? m : m.charAt(0).toUpperCase() + m.slice(1)));
  return (
    <div role="alert" className={cx("flex gap-2.5 rounded-lg bg-red-50 px-3.5 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200", className)}>
      <AlertIcon className="mt-0.5 size-4 shrink-0 text-red-500" />
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <ul className="list-disc space-y-0.5 pl-4">
          {messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
