"use client";

import Link from "next/link";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { LinkButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { Field, Input, Select } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { ShieldIcon } from "@/components/ui/icons";
import { FormErrors } from "@/components/ui/states";
import { POLICY_LABELS, type PlaybackPolicy } from "@/lib/client/access-hooks";
import { useWebhooks } from "@/lib/client/hooks";

/** The event a webhook must subscribe to for Castline to ask it about viewers. */
const ACCESS_EVENT = "playback.accessControl";

const TYPES: { type: PlaybackPolicy["type"]; description: string }[] = [
  { type: "public", description: "Anyone with the player link or playback ID can watch." },
  { type: "jwt", description: "Viewers need a token signed with one of your signing keys." },
  { type: "webhook", description: "Castline asks your webhook about each viewer's access key." },
];

/** The save a policy card runs: the stream's or the asset's PATCH. */
export interface PolicySave {
  mutate(policy: PlaybackPolicy, options: { onSuccess: () => void }): void;
  isPending: boolean;
  error: Error | null;
}

class PolicyInputError extends Error {}

/**
 * Who may watch a stream or a video: public, viewers with a signed token (JWT), or those
 * the user's webhook lets in. Shows the policy in force; saves on demand.
 */
export function PlaybackPolicyCard({ policy, noun, save }: { policy: PlaybackPolicy; noun: "stream" | "video"; save: PolicySave }) {
  const webhooks = useWebhooks();
  const [type, setType] = useState(policy.type);
  const [webhookId, setWebhookId] = useState(policy.webhookId ?? "");
  const [context, setContext] = useState(policy.webhookContext ? JSON.stringify(policy.webhookContext, null, 2) : "");
  const [refresh, setRefresh] = useState(policy.refreshInterval?.toString() ?? "");
  const [origins, setOrigins] = useState((policy.allowedOrigins ?? []).join("\n"));
  const [inputError, setInputError] = useState<Error | null>(null);
  const [saved, setSaved] = useState(false);
  const name = useId();

  // Only a webhook that receives the event can be asked (the API refuses others); the one in force stays listed.
  const askable = webhooks.data?.filter((w) => w.events.includes(ACCESS_EVENT) || w.id === policy.webhookId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    let next: PlaybackPolicy;
    try {
      next = readPolicy({ type, webhookId, context, refresh, origins });
    } catch (err) {
      setInputError(err as Error);
      return;
    }
    setInputError(null);
    save.mutate(next, { onSuccess: () => setSaved(true) });
  };

  return (
    <Card>
      <CardHeader
        icon={<ShieldIcon className="size-4" />}
        title="Viewer access"
        description={`Who can watch this ${noun}.`}
        action={
          <Badge tone={policy.type === "public" ? "neutral" : "indigo"} className="whitespace-nowrap">
            <span data-testid="current-policy">{POLICY_LABELS[policy.type]}</span>
          </Badge>
        }
      />
      <form onSubmit={submit} onChange={() => setSaved(false)}>
        <CardBody className="space-y-4">
          <fieldset>
            <legend className="sr-only">Who can watch</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              {TYPES.map((option) => (
                <label
                  key={option.type}
                  className={cx(
                    "flex cursor-pointer gap-2.5 rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors",
                    type === option.type ? "bg-indigo-50/60 ring-2 ring-indigo-600" : "ring-zinc-200 hover:bg-zinc-50",
                  )}
                >
                  <input
                    type="radio"
                    name={name}
                    value={option.type}
                    checked={type === option.type}
                    onChange={() => setType(option.type)}
                    className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                  />
                  <span className="min-w-0 text-sm">
                    <span className="block font-medium text-zinc-900">{POLICY_LABELS[option.type]}</span>
                    <span className="block text-xs text-zinc-500">{option.description}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          {type === "jwt" && (
            <Hint>
              Sign tokens on your server with a key from{" "}
              <Link href="/access-control" className="font-medium text-indigo-600 hover:text-indigo-500">
                Access control
              </Link>
              , and give them to the player as <code className="font-mono text-xs">?jwt=</code> on the player link, or the{" "}
              <code className="font-mono text-xs">Livepeer-Jwt</code> header.
            </Hint>
          )}

          {type === "webhook" && (
            <div className="space-y-4">
              <Field
                label="Webhook"
                htmlFor={`${name}-webhook`}
                hint={
                  <>
                    Viewers pass an access key (<code className="font-mono">?accessKey=</code>); Castline sends it to this webhook as a{" "}
                    <code className="font-mono">{ACCESS_EVENT}</code> event, and a 2xx answer lets them in.
                  </>
                }
              >
                {askable?.length === 0 ? (
                  <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-zinc-50 px-4 py-3 ring-1 ring-zinc-200 ring-inset">
                    <p className="min-w-0 flex-1 text-sm text-zinc-600">
                      None of your webhooks receives <code className="font-mono text-xs">{ACCESS_EVENT}</code>. Add one that does, or add the event to one you
                      have.
                    </p>
                    <LinkButton href="/webhooks" size="sm" variant="primary">
                      Go to webhooks
                    </LinkButton>
                  </div>
                ) : (
                  <Select id={`${name}-webhook`} value={webhookId} onChange={(e) => setWebhookId(e.target.value)} required>
                    <option value="" disabled>
                      {webhooks.isPending ? "Loading webhooks…" : "Choose a webhook…"}
                    </option>
                    {askable?.map((w) => (
                      <option key={w.id} value={w.id}>
                        {w.name}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <div className="grid gap-4 sm:grid-cols-3">
                <Field
                  label="Context"
                  htmlFor={`${name}-context`}
                  optional
                  hint="A JSON object sent with every question, to tell your webhook which content this is."
                  className="sm:col-span-2"
                >
                  <textarea
                    id={`${name}-context`}
                    value={context}
                    onChange={(e) => setContext(e.target.value)}
                    rows={3}
                    spellCheck={false}
                    placeholder={'{ "plan": "premium" }'}
                    className="block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs text-zinc-900 shadow-xs ring-1 ring-zinc-300 ring-inset placeholder:text-zinc-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none focus:ring-inset"
                  />
                </Field>
                <Field label="Ask again every" htmlFor={`${name}-refresh`} optional hint="Seconds a yes holds before the webhook is asked again.">
                  <Input
                    id={`${name}-refresh`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    step={1}
                    value={refresh}
                    onChange={(e) => setRefresh(e.target.value)}
                    placeholder="600"
                  />
                </Field>
              </div>
            </div>
          )}

          <Field
            label="Allowed origins"
            htmlFor={`${name}-origins`}
            optional
            hint="Only pages on these sites may play it (the player embedded there too), one per line: https://example.com. Elsewhere, or where no site is named (a page sending no Referer, the player link opened directly), it is refused; you still watch it here. Empty: any site."
          >
            <textarea
              id={`${name}-origins`}
              value={origins}
              onChange={(e) => setOrigins(e.target.value)}
              rows={2}
              spellCheck={false}
              placeholder="https://example.com"
              className="block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs text-zinc-900 shadow-xs ring-1 ring-zinc-300 ring-inset placeholder:text-zinc-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none focus:ring-inset"
            />
          </Field>

          <FormErrors error={inputError ?? save.error} />
        </CardBody>
        <FormFooter submit="Save access" pending={save.isPending} done={saved && "Saved"} />
      </form>
    </Card>
  );
}

function Hint({ children }: { children: ReactNode }) {
  return <p className="rounded-lg bg-zinc-50 px-3.5 py-3 text-sm text-zinc-600 ring-1 ring-zinc-200 ring-inset">{children}</p>;
}

/** The policy the form describes; what the API would refuse anyway is said here first, in the form's words. */
function readPolicy(form: { type: PlaybackPolicy["type"]; webhookId: string; context: string; refresh: string; origins: string }): PlaybackPolicy {
  const allowedOrigins = form.origins.split(/[\s,]+/).filter(Boolean);
  const policy: PlaybackPolicy = { type: form.type, ...(allowedOrigins.length && { allowedOrigins }) };
  if (form.type !== "webhook") return policy;
  if (!form.webhookId) throw new PolicyInputError("Choose the webhook that decides who can watch.");
  policy.webhookId = form.webhookId;
  if (form.context.trim()) {
    let context: unknown;
    try {
      context = JSON.parse(form.context);
    } catch {
      throw new PolicyInputError("The context is not valid JSON.");
    }
    if (typeof context !== "object" || context === null || Array.isArray(context)) throw new PolicyInputError("The context must be a JSON object ({ … }).");
    policy.webhookContext = context as Record<string, unknown>;
  }
  if (form.refresh.trim()) {
    const seconds = Number(form.refresh);
    if (!Number.isInteger(seconds) || seconds < 1) throw new PolicyInputError("“Ask again every” must be a whole number of seconds.");
    policy.refreshInterval = seconds;
  }
  return policy;
}
