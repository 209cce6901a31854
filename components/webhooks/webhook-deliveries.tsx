"use client";

import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code";
import { CopyButton } from "@/components/ui/copy";
import { cx } from "@/components/ui/cx";
import { Select } from "@/components/ui/field";
import { AlertIcon, CheckIcon, ChevronRightIcon, ResendIcon, SendIcon, ShieldIcon, XIcon } from "@/components/ui/icons";
import { EmptyState, FormErrors, LoadingState } from "@/components/ui/states";
import { formatClock, formatDateTimeSeconds, formatHttpStatus, formatMs, prettyJson, timeAgo } from "@/lib/client/format";
import type { QueuedDelivery } from "@/lib/webhooks/schema";
import { useResendDelivery, useSendTestEvent, useWebhookDeliveries } from "@/lib/client/hooks";
import { ACCESS_CONTROL_EVENT } from "@/lib/webhooks/events";
import { WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/webhooks/events";
import type { Webhook, WebhookDelivery } from "@/lib/webhooks/schema";

/** Attempts arrive on their own (retries, real events): the log polls, and faster right after a send. */
const POLL_MS = 4_000;
const QUICK_POLL_MS = 1_000;
const QUICK_FOR_MS = 20_000;
/** How long a "queued" confirmation stays. */
const CONFIRM_MS = 4_000;

/** Receivers verify these; they are what people come to the log to check. */
const SIGNATURE_HEADERS = new Set(["castline-signature", "livepeer-signature"]);

const isKnown = (e: string): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e);
const shortId = (id: string) => id.slice(0, 8);
/** The API writes its messages in lower case; on their own they read better capitalised. */
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Polls quickly for a while after `quicken()`, so a sent event and its first retry show up at once. */
function useQuickPoll(): [number, () => void] {
  const [quick, setQuick] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const quicken = useCallback(() => {
    setQuick(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setQuick(false), QUICK_FOR_MS);
  }, []);
  return [quick ? QUICK_POLL_MS : POLL_MS, quicken];
}

/** The current time, ticking, so "2 minutes ago" keeps telling the truth. */
function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A flag that turns itself off again, for short confirmations. */
function useFlash(): [boolean, () => void] {
  const [on, setOn] = useState(0);
  useEffect(() => {
    if (!on) return;
    const timer = setTimeout(() => setOn(0), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [on]);
  return [on > 0, useCallback(() => setOn((n) => n + 1), [])];
}

/** chevron · result · event · response · duration · sent · resend */
const COLUMNS = "auto 6.5rem minmax(0,1fr) minmax(0,1.6fr) 5rem 7.5rem auto";

export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const [pollMs, quicken] = useQuickPoll();
  const log = useWebhookDeliveries(webhook.id, pollMs);
  const now = useNow(15_000);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Card id="deliveries" className="mb-6 min-w-0 scroll-mt-6">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3 border-b border-zinc-100 px-5 py-4">
        <div className="min-w-64 flex-1">
          <h2 className="flex items-center gap-2.5 text-[15px] font-semibold text-zinc-900">
            Deliveries
            <span className="inline-flex items-center gap-1.5 text-xs font-normal text-zinc-500" title={`Refreshes every ${pollMs / 1000} s`}>
              <span className="relative flex size-2" aria-hidden="true">
                <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60 [animation-duration:2s]" />
                <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
              </span>
              Live
            </span>
          </h2>
          <p className="mt-0.5 text-sm text-zinc-500">Every attempt to call your endpoint, newest first. Select one to see what was sent and what came back.</p>
        </div>
        <TestEventForm webhook={webhook} onQueued={quicken} />
      </div>

      {log.isPending ? (
        <LoadingState compact label="Loading deliveries…" />
      ) : !log.data ? (
        // A failed poll keeps the attempts already shown; only a failed first load ends here.
        <div className="px-5 py-4">
          <FormErrors error={log.error} />
        </div>
      ) : log.deliveries.length === 0 ? (
        <EmptyState
          className="rounded-none border-0 py-12"
          icon={<SendIcon className="size-6" />}
          title="No deliveries yet — send a test event"
          description="A test event is a sample payload, signed, logged and retried exactly like a real one. Pick an event above and send it."
        />
      ) : (
        <>
          <div className="md:grid md:gap-x-4" style={{ gridTemplateColumns: COLUMNS }}>
            <div
              aria-hidden="true"
              className="hidden border-b border-zinc-100 bg-zinc-50/60 px-5 py-2.5 text-xs font-medium text-zinc-500 md:col-span-full md:grid md:grid-cols-subgrid"
            >
              <span className="col-span-2">Result</span>
              <span>Event</span>
              <span>Response</span>
              <span className="text-right">Duration</span>
              <span>Sent</span>
              <span />
            </div>
            <ul aria-label="Deliveries" className="divide-y divide-zinc-100 md:col-span-full md:grid md:grid-cols-subgrid">
              {log.deliveries.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  now={now}
                  expanded={expanded.has(delivery.id)}
                  onToggle={() => toggle(delivery.id)}
                  onResent={quicken}
                />
              ))}
            </ul>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 bg-zinc-50/60 px-5 py-3 text-xs text-zinc-500">
            <p>
              {log.hasNextPage ? `The latest ${log.deliveries.length} attempts` : `${log.deliveries.length} attempt${log.deliveries.length === 1 ? "" : "s"}`}.
              Network errors, timeouts, 5xx, 408 and 429 are retried after 1 s, 5 s, 30 s, 2 min, 5 min and 10 min.
            </p>
            {log.hasNextPage && (
              <Button size="sm" onClick={() => log.fetchNextPage()} pending={log.isFetchingNextPage}>
                Load more
              </Button>
            )}
          </div>
        </>
      )}
    </Card>
  );
}

function TestEventForm({ webhook, onQueued }: { webhook: Webhook; onQueued: () => void }) {
  const send = useSendTestEvent(webhook.id);
  const events = webhook.events.filter(isKnown);
  const [chosen, setChosen] = useState<WebhookEvent | undefined>(events[0]);
  // The events can be edited on this page: fall back to the first if the choice went away.
  const event = chosen && events.includes(chosen) ? chosen : events[0];
  const [queued, setQueued] = useState<QueuedDelivery | null>(null);
  const [showQueued, flash] = useFlash();
  const selectId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!event) return;
    send.mutate(event, {
      onSuccess: (result) => {
        setQueued(result);
        flash();
        onQueued();
      },
    });
  };

  return (
    <div className="flex w-full flex-col gap-1.5 sm:w-auto sm:items-end">
      {/* On a phone the event list takes the whole row: the longest names (multistream.disconnected) would be cut. */}
      <form aria-label="Send a test event" onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label htmlFor={selectId} className="sr-only">
          Test event
        </label>
        <div className="min-w-0 sm:w-60">
          <Select id={selectId} value={event ?? ""} onChange={(e) => setChosen(e.target.value as WebhookEvent)} className="font-mono text-[13px]">
            {events.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" pending={send.isPending} disabled={!event}>
          {!send.isPending && <SendIcon />} Send test event
        </Button>
      </form>
      {showQueued && queued ? (
        <p role="status" className="inline-flex items-center gap-1 text-xs text-emerald-700">
          <CheckIcon className="size-3.5" /> Test <code className="font-mono">{queued.event}</code> queued
          <span className="text-zinc-400">· event {shortId(queued.eventId)}</span>
        </p>
      ) : send.error ? (
        <p role="alert" className="inline-flex items-center gap-1 text-xs text-red-700">
          <AlertIcon className="size-3.5" /> {send.error.message}
        </p>
      ) : null}
    </div>
  );
}

function DeliveryRow({
  delivery,
  now,
  expanded,
  onToggle,
  onResent,
}: {
  delivery: WebhookDelivery;
  now: number;
  expanded: boolean;
  onToggle: () => void;
  onResent: () => void;
}) {
  const resend = useResendDelivery(delivery.webhookId);
  const [showQueued, flash] = useFlash();
  const panelId = useId();
  const { response } = delivery;
  // "receiver answered 500" only repeats the status; other errors (redirects, network) say more.
  const extraError = delivery.error && !(response && /^receiver answered \d+$/.test(delivery.error)) ? delivery.error : undefined;

  const rowClick = (e: MouseEvent) => {
    // Selecting text in a row (to copy an id) is not a click on it.
    if (window.getSelection()?.toString()) return;
    if ((e.target as HTMLElement).closest("button")) return;
    onToggle();
  };

  return (
    <li
      aria-label={`${delivery.event} ${delivery.success ? "delivered" : "failed"} ${formatClock(delivery.createdAt)}`}
      className="md:col-span-full md:grid md:grid-cols-subgrid"
    >
      <div
        onClick={rowClick}
        className={cx(
          "flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3 text-sm transition-colors md:col-span-full md:grid md:grid-cols-subgrid",
          expanded ? "bg-zinc-50" : "hover:bg-zinc-50/70",
        )}
      >
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={panelId}
          aria-label={`Details of the ${delivery.event} attempt at ${formatClock(delivery.createdAt)}`}
          className="-m-1 rounded p-1 text-zinc-400 hover:text-zinc-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <ChevronRightIcon className={cx("size-4 transition-transform", expanded && "rotate-90")} />
        </button>

        <span>
          {delivery.success ? (
            <Badge tone="green">
              <CheckIcon className="size-3" /> Delivered
            </Badge>
          ) : (
            <Badge tone="red">
              <XIcon className="size-3" /> Failed
            </Badge>
          )}
        </span>

        <span className="min-w-0">
          <span className="block truncate font-mono text-[13px] text-zinc-900">{delivery.event}</span>
          <span className="block font-mono text-xs text-zinc-400" title={`Event ${delivery.eventId}`}>
            {shortId(delivery.eventId)}
          </span>
        </span>

        <span className="w-full min-w-0 md:w-auto">
          {response ? (
            <span className="block truncate">
              <span className={cx("font-mono text-[13px] font-semibold", response.status < 300 ? "text-emerald-700" : "text-red-700")}>{response.status}</span>{" "}
              <span className="text-zinc-600">{formatHttpStatus(response.status).replace(/^\d+\s*/, "")}</span>
            </span>
          ) : (
            <span className="block truncate text-red-700" title={delivery.error}>
              {delivery.error ?? "No response"}
            </span>
          )}
          {extraError && response && (
            <span className="block truncate text-xs text-zinc-500" title={extraError}>
              {extraError}
            </span>
          )}
        </span>

        <span className="font-mono text-xs text-zinc-600 tabular-nums md:text-right">{formatMs(delivery.durationMs)}</span>

        <span className="text-xs">
          <span className="text-zinc-700" title={formatDateTimeSeconds(delivery.createdAt)}>
            {timeAgo(delivery.createdAt, now)}
          </span>
          <span className="ml-1.5 text-zinc-400 md:ml-0 md:block">{formatClock(delivery.createdAt)}</span>
        </span>

        <span className="ml-auto flex justify-end md:ml-0">
          {delivery.event === ACCESS_CONTROL_EVENT ? null : showQueued ? (
            <span role="status" className="inline-flex h-8 items-center gap-1 px-2.5 text-sm font-medium text-emerald-700">
              <CheckIcon /> Queued
            </span>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              pending={resend.isPending}
              title={resend.error ? `Could not resend: ${resend.error.message}` : "Send this event again (same event id, new signature)"}
              className={cx(resend.error && "text-red-600")}
              onClick={() =>
                resend.mutate(delivery.id, {
                  onSuccess: () => {
                    flash();
                    onResent();
                  },
                })
              }
            >
              {!resend.isPending && (resend.error ? <AlertIcon /> : <ResendIcon />)} Resend
            </Button>
          )}
        </span>
      </div>

      {expanded && <DeliveryDetails id={panelId} delivery={delivery} />}
    </li>
  );
}

function DeliveryDetails({ id, delivery }: { id: string; delivery: WebhookDelivery }) {
  const { request, response } = delivery;
  const body = prettyJson(request.body);
  const answer = response?.body ? prettyJson(response.body) : undefined;
  const headers = Object.entries(request.headers).sort(([a], [b]) => Number(SIGNATURE_HEADERS.has(a)) - Number(SIGNATURE_HEADERS.has(b)) || a.localeCompare(b));
  // The same rule the sender applies: only these failures are tried again.
  const accessCheck = delivery.event === ACCESS_CONTROL_EVENT;
  const retried = !accessCheck && !delivery.success && (!response || response.status >= 500 || response.status === 408 || response.status === 429);

  return (
    <div id={id} role="region" aria-label={`${delivery.event} attempt details`} className="border-t border-zinc-100 bg-zinc-50/70 px-5 py-5 md:col-span-full">
      <dl className="mb-5 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-[auto_auto_auto_auto] lg:justify-start">
        <div className="min-w-0">
          <dt className="text-xs text-zinc-500">Event ID</dt>
          <dd className="flex items-center gap-1">
            <code className="truncate font-mono text-[13px] text-zinc-800">{delivery.eventId}</code>
            <CopyButton value={delivery.eventId} iconOnly variant="ghost" ariaLabel="Copy event ID" />
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-zinc-500">Attempt ID</dt>
          <dd className="flex h-8 items-center">
            <code className="truncate font-mono text-[13px] text-zinc-800">{delivery.id}</code>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Sent</dt>
          <dd className="flex h-8 items-center text-zinc-800">{formatDateTimeSeconds(delivery.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Duration</dt>
          <dd className="flex h-8 items-center text-zinc-800">{formatMs(delivery.durationMs)}</dd>
        </div>
      </dl>

      <div className="grid gap-6 lg:grid-cols-2">
        <section className="min-w-0 space-y-3">
          <div>
            <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Request</h3>
            <p className="mt-1 truncate font-mono text-[13px] text-zinc-800" title={request.url}>
              <span className="font-semibold text-indigo-700">{request.method}</span> {request.url}
            </p>
          </div>
          <dl aria-label="Request headers" className="divide-y divide-zinc-100 overflow-hidden rounded-lg bg-white text-xs ring-1 ring-zinc-200">
            {headers.map(([name, value]) => {
              const signature = SIGNATURE_HEADERS.has(name);
              return (
                <div key={name} className={cx("grid gap-x-3 gap-y-0.5 px-3 py-2 sm:grid-cols-[11rem_minmax(0,1fr)]", signature && "bg-indigo-50/40")}>
                  <dt className="flex items-center gap-1 font-mono text-zinc-500">
                    {name}
                    {signature && (
                      <>
                        <ShieldIcon className="size-3.5 text-indigo-500" />
                        <span className="sr-only">(signature)</span>
                      </>
                    )}
                  </dt>
                  <dd className="font-mono break-all text-zinc-800">{value}</dd>
                </div>
              );
            })}
          </dl>
          <p className="text-xs text-zinc-500">
            <ShieldIcon className="mr-1 inline size-3.5 align-[-2px] text-indigo-500" />
            Signatures are HMAC-SHA256 with this webhook&apos;s secret: <code className="font-mono">Castline-Signature</code> of{" "}
            <code className="font-mono">t.body</code>, <code className="font-mono">Livepeer-Signature</code> of the body.
          </p>
          <div>
            <h4 className="mb-1.5 text-xs font-medium text-zinc-700">Body</h4>
            <CodeBlock value={body.text} json={body.json} label="Request body" copyLabel="Copy request body" />
          </div>
        </section>

        <section className="min-w-0 space-y-3">
          <div>
            <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Response</h3>
            <p className="mt-1 flex items-center gap-2 text-[13px]">
              {response ? (
                <Badge tone={response.status < 300 ? "green" : "red"} className="font-mono">
                  {formatHttpStatus(response.status)}
                </Badge>
              ) : (
                <Badge tone="red">No response</Badge>
              )}
              <span className="text-zinc-500">after {formatMs(delivery.durationMs)}</span>
            </p>
          </div>
          {delivery.error && (
            <div role="note" className="flex gap-2 rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-800 ring-1 ring-red-200 ring-inset">
              <AlertIcon className="mt-0.5 size-4 shrink-0 text-red-500" />
              <div className="min-w-0">
                <p className="font-medium break-words">{capitalise(delivery.error)}</p>
                <p className="mt-0.5 text-xs text-red-700/80">
                  {accessCheck
                    ? "Access checks are not retried: the viewer was told the site's access check is unavailable, and their next try asks again."
                    : retried
                      ? "Castline retries this kind of failure with back-off; each retry shows up here as its own attempt."
                      : "Not retried: a 4xx answer (other than 408 and 429) or a redirect is final. Fix the endpoint, then resend."}
                </p>
              </div>
            </div>
          )}
          {response && (
            <div>
              <h4 className="mb-1.5 flex items-baseline justify-between text-xs font-medium text-zinc-700">
                Body
                {response.body.length >= 1024 && <span className="font-normal text-zinc-400">first KiB</span>}
              </h4>
              {answer ? (
                <CodeBlock value={answer.text} json={answer.json} label="Response body" copyLabel="Copy response body" />
              ) : (
                <p className="rounded-lg bg-white px-3 py-2.5 text-xs text-zinc-400 ring-1 ring-zinc-200">Empty body</p>
              )}
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
