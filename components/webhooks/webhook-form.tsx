"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { Field, Input, UrlInput } from "@/components/ui/field";
import { FormErrors } from "@/components/ui/states";
import { cx } from "@/components/ui/cx";
import { ApiRequestError } from "@/lib/api/client";
import type { WebhookForm as WebhookFormValues } from "@/lib/client/hooks";
import { WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/webhooks/events";

const DESCRIPTIONS: Partial<Record<WebhookEvent, string>> = {
  "stream.started": "A broadcast began",
  "stream.idle": "A broadcast ended",
  "recording.started": "Recording of a broadcast began",
  "recording.waiting": "A recording is being prepared",
  "recording.ready": "A recording can be watched",
  "multistream.connected": "Forwarding to a target began",
  "multistream.error": "Forwarding to a target failed",
  "multistream.disconnected": "Forwarding to a target stopped",
  "asset.created": "A video asset was created",
  "asset.ready": "An asset finished processing",
  "asset.failed": "An asset could not be processed",
  "asset.deleted": "An asset was deleted",
  "task.spawned": "A background task started",
  "task.updated": "A task made progress",
  "task.completed": "A task finished",
  "task.failed": "A task failed",
};

/** Events grouped by what they are about (the part before the dot), in the order the server lists them. */
const GROUPS = WEBHOOK_EVENTS.reduce<{ name: string; events: WebhookEvent[] }[]>((groups, event) => {
  const name = event.split(".")[0];
  const group = groups.find((g) => g.name === name);
  if (group) group.events.push(event);
  else groups.push({ name, events: [event] });
  return groups;
}, []);

const isKnown = (e: string): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e);

/**
 * Name, URL and event checkboxes, shared by the create dialog and the edit page;
 * `footer` gets the submit button so each place lays it out its own way.
 */
export function WebhookFields({
  initial,
  error,
  onSubmit,
  footer,
  bodyClassName,
}: {
  initial?: { name: string; url: string; events: string[] };
  error: Error | null;
  onSubmit: (values: WebhookFormValues) => void;
  footer: ReactNode;
  bodyClassName?: string;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [url, setUrl] = useState(initial?.url ?? "");
  const [events, setEvents] = useState<Set<WebhookEvent>>(() => new Set(initial?.events.filter(isKnown) ?? []));
  const [localError, setLocalError] = useState<Error | null>(null);

  const toggle = (list: WebhookEvent[], on: boolean) =>
    setEvents((current) => {
      const next = new Set(current);
      for (const e of list) {
        if (on) next.add(e);
        else next.delete(e);
      }
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: string[] = [];
    if (!name.trim()) problems.push("Give the webhook a name.");
    if (!url.trim()) problems.push("Enter the URL that should receive the events.");
    if (events.size === 0) problems.push("Choose at least one event.");
    setLocalError(problems.length ? new ApiRequestError(422, problems) : null);
    if (problems.length) return;
    onSubmit({ name: name.trim(), url: url.trim(), events: WEBHOOK_EVENTS.filter((e) => events.has(e)) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className={cx("space-y-5", bodyClassName)}>
        <FormErrors error={localError ?? error} />
        <div className="grid gap-4 sm:grid-cols-[1fr_1.6fr]">
          <Field label="Name" htmlFor="webhook-name">
            <Input id="webhook-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Go-live alerts" maxLength={200} />
          </Field>
          <Field label="Endpoint URL" htmlFor="webhook-url">
            <UrlInput id="webhook-url" value={url} onChange={setUrl} placeholder="https://example.com/castline/webhook" />
          </Field>
        </div>

        <fieldset>
          <div className="flex items-baseline justify-between">
            <legend className="text-sm font-medium text-zinc-800">Events</legend>
            <span className="text-xs text-zinc-500">
              {events.size} of {WEBHOOK_EVENTS.length} selected ·{" "}
              <button
                type="button"
                className="font-medium text-indigo-600 hover:text-indigo-500"
                onClick={() => toggle([...WEBHOOK_EVENTS], events.size !== WEBHOOK_EVENTS.length)}
              >
                {events.size === WEBHOOK_EVENTS.length ? "Clear all" : "Select all"}
              </button>
            </span>
          </div>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            {GROUPS.map((group) => {
              const all = group.events.every((e) => events.has(e));
              return (
                <div key={group.name} className="rounded-xl bg-zinc-50/70 p-3 ring-1 ring-zinc-200 ring-inset">
                  <div className="mb-2 flex items-center justify-between">
                    <span className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">{group.name}</span>
                    <button
                      type="button"
                      className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
                      onClick={() => toggle(group.events, !all)}
                      aria-label={`${all ? "Clear" : "Select"} all ${group.name} events`}
                    >
                      {all ? "None" : "All"}
                    </button>
                  </div>
                  <div className="space-y-1.5">
                    {group.events.map((e) => (
                      <label key={e} className="flex cursor-pointer items-start gap-2.5 rounded-md px-1 py-0.5 hover:bg-white">
                        <input
                          type="checkbox"
                          className="mt-0.5 size-4 shrink-0 cursor-pointer accent-indigo-600"
                          checked={events.has(e)}
                          onChange={(ev) => toggle([e], ev.target.checked)}
                          aria-label={e}
                        />
                        <span className="min-w-0">
                          <span className="block font-mono text-[13px] text-zinc-900">{e}</span>
                          {DESCRIPTIONS[e] && <span className="block text-xs text-zinc-500">{DESCRIPTIONS[e]}</span>}
                        </span>
                      </label>
                    ))}
                  </div>
                </div>
              );
            })}
          </div>
        </fieldset>
      </div>
      {footer}
    </form>
  );
}
