"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm";
import { CopyField } from "@/components/ui/copy";
import { AlertIcon, ArrowLeftIcon, CheckIcon, TrashIcon } from "@/components/ui/icons";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { formatDateTime, formatHttpStatus, timeAgo } from "@/lib/client/format";
import { useDeleteWebhook, useUpdateWebhook, useWebhook } from "@/lib/client/hooks";
import type { Webhook } from "@/lib/webhooks/schema";
import { WebhookDeliveries } from "./webhook-deliveries";
import { WebhookFields } from "./webhook-form";
import { failureSummary, webhookHealth, WebhookHealthBadge } from "./webhook-health";

export function WebhookDetail({ id }: { id: string }) {
  const webhook = useWebhook(id);
  return (
    <>
      <Link href="/webhooks" className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-zinc-500 hover:text-zinc-800">
        <ArrowLeftIcon /> Webhooks
      </Link>
      {webhook.isPending ? (
        <LoadingState label="Loading webhook…" />
      ) : webhook.isError ? (
        <ErrorState
          error={webhook.error}
          onRetry={() => webhook.refetch()}
          notFound={{
            title: "Webhook not found",
            description: "It may have been deleted, or the link is wrong.",
            action: <LinkButton href="/webhooks">Back to webhooks</LinkButton>,
          }}
        />
      ) : (
        <WebhookPage webhook={webhook.data} />
      )}
    </>
  );
}

function WebhookPage({ webhook }: { webhook: Webhook }) {
  const router = useRouter();
  const update = useUpdateWebhook(webhook.id);
  const remove = useDeleteWebhook();
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  const health = webhookHealth(webhook);

  return (
    <>
      <div className="mb-6">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-zinc-900">{webhook.name}</h1>
          <WebhookHealthBadge health={health} />
        </div>
        <p className="mt-1 truncate font-mono text-sm text-zinc-500">{webhook.url}</p>
      </div>

      <WebhookDeliveries webhook={webhook} />

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader title="Endpoint and events" description="Changes apply to the next event." />
          <WebhookFields
            key={webhook.id}
            initial={webhook}
            error={update.error}
            bodyClassName="px-5 py-4"
            onSubmit={(values) => {
              setSaved(false);
              update.mutate(values, { onSuccess: () => setSaved(true) });
            }}
            footer={
              <div className="flex items-center justify-end gap-3 border-t border-zinc-100 px-5 py-3.5">
                {saved && !update.isPending && (
                  <span role="status" className="inline-flex items-center gap-1 text-sm text-emerald-700">
                    <CheckIcon /> Saved
                  </span>
                )}
                <Button type="submit" variant="primary" pending={update.isPending}>
                  Save changes
                </Button>
              </div>
            }
          />
        </Card>

        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="Status" />
            <CardBody className="space-y-4 text-sm">
              <div>
                <p className="text-xs text-zinc-500">Last delivery</p>
                <p className="text-zinc-800">
                  {health.state === "unused" ? (
                    "No events sent yet"
                  ) : (
                    <span title={formatDateTime(health.lastDeliveryAt)}>{timeAgo(health.lastDeliveryAt)}</span>
                  )}
                </p>
              </div>
              {health.state === "failing" && (
                <div className="rounded-lg bg-red-50 px-3 py-2.5 text-red-800 ring-1 ring-red-200 ring-inset">
                  <p className="flex items-center gap-1.5 font-medium">
                    <AlertIcon className="size-4 text-red-500" /> Failed {timeAgo(health.failure.timestamp)}
                  </p>
                  <p className="mt-1 text-xs break-words">
                    {health.failure.statusCode ? `HTTP ${formatHttpStatus(health.failure.statusCode)}` : null}
                    {health.failure.statusCode && health.failure.error ? " · " : null}
                    {health.failure.error}
                  </p>
                  {health.failure.response && (
                    <pre className="mt-2 max-h-32 overflow-auto rounded bg-white/70 p-2 font-mono text-[11px] whitespace-pre-wrap">
                      {health.failure.response}
                    </pre>
                  )}
                </div>
              )}
              {health.state === "healthy" && health.recoveredFrom && (
                <p className="flex items-start gap-1.5 text-xs text-zinc-500">
                  <CheckIcon className="mt-px size-3.5 shrink-0 text-emerald-600" />
                  <span>
                    Recovered: last failed <span title={formatDateTime(health.recoveredFrom.timestamp)}>{timeAgo(health.recoveredFrom.timestamp)}</span>{" "}
                    ({failureSummary(health.recoveredFrom)}).
                  </span>
                </p>
              )}
              <div>
                <p className="mb-1 text-xs text-zinc-500">Webhook ID</p>
                <CopyField value={webhook.id} label="webhook ID" />
              </div>
              <div>
                <p className="text-xs text-zinc-500">Created</p>
                <p className="text-zinc-800">{formatDateTime(webhook.createdAt)}</p>
              </div>
            </CardBody>
          </Card>

          <Card className="ring-red-200">
            <CardBody className="space-y-3">
              <div>
                <h2 className="text-sm font-semibold text-zinc-900">Delete webhook</h2>
                <p className="mt-0.5 text-sm text-zinc-500">Castline stops sending events to this endpoint.</p>
              </div>
              <Button variant="dangerGhost" className="-ml-2" onClick={() => setConfirming(true)}>
                <TrashIcon /> Delete webhook
              </Button>
            </CardBody>
          </Card>
        </div>
      </div>

      <ConfirmDialog
        open={confirming}
        onClose={() => {
          remove.reset();
          setConfirming(false);
        }}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(webhook.id, { onSuccess: () => router.push("/webhooks") })}
      >
        <strong className="font-semibold text-zinc-900">{webhook.name}</strong> will stop receiving events. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
