"use client";

import { useState } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy";
import { DangerZone, DetailColumns, DetailHeader, DetailPage } from "@/components/ui/detail-page";
import { FormFooter } from "@/components/ui/form-footer";
import { AlertIcon, CheckIcon } from "@/components/ui/icons";
import { formatDateTime, formatHttpStatus, timeAgo } from "@/lib/client/format";
import { useDeleteWebhook, useUpdateWebhook, useWebhook } from "@/lib/client/hooks";
import type { Webhook } from "@/lib/webhooks/schema";
import { WebhookDeliveries } from "./webhook-deliveries";
import { WebhookFields } from "./webhook-form";
import { failureSummary, webhookHealth, WebhookHealthBadge, type WebhookHealth } from "./webhook-health";

export function WebhookDetail({ id }: { id: string }) {
  return (
    <DetailPage query={useWebhook(id)} noun="webhook" list={{ href: "/webhooks", label: "Webhooks" }}>
      {(webhook) => <WebhookPage webhook={webhook} />}
    </DetailPage>
  );
}

function WebhookPage({ webhook }: { webhook: Webhook }) {
  const update = useUpdateWebhook(webhook.id);
  const remove = useDeleteWebhook();
  const [saved, setSaved] = useState(false);
  const health = webhookHealth(webhook);

  return (
    <>
      <DetailHeader
        title={webhook.name}
        status={<WebhookHealthBadge health={health} />}
        description={<span className="block truncate font-mono">{webhook.url}</span>}
      />

      <WebhookDeliveries webhook={webhook} />

      <DetailColumns
        main={
          <Card>
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
              footer={<FormFooter submit="Save changes" pending={update.isPending} done={saved && "Saved"} />}
            />
          </Card>
        }
        side={
          <>
            <StatusCard webhook={webhook} health={health} />
            <DangerZone remove={remove} description="Castline stops sending events to this endpoint.">
              <strong className="font-semibold text-zinc-900">{webhook.name}</strong> will stop receiving events. This cannot be undone.
            </DangerZone>
          </>
        }
      />
    </>
  );
}

function StatusCard({ webhook, health }: { webhook: Webhook; health: WebhookHealth }) {
  return (
    <Card>
      <CardHeader title="Status" />
      <CardBody className="space-y-4 text-sm">
        <div>
          <p className="text-xs text-zinc-500">Last delivery</p>
          <p className="text-zinc-800">
            {health.state === "unused" ? "No events sent yet" : <span title={formatDateTime(health.lastDeliveryAt)}>{timeAgo(health.lastDeliveryAt)}</span>}
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
              <pre className="mt-2 max-h-32 overflow-auto rounded bg-white/70 p-2 font-mono text-[11px] whitespace-pre-wrap">{health.failure.response}</pre>
            )}
          </div>
        )}
        {health.state === "healthy" && health.recoveredFrom && (
          <p className="flex items-start gap-1.5 text-xs text-zinc-500">
            <CheckIcon className="mt-px size-3.5 shrink-0 text-emerald-600" />
            <span>
              Recovered: last failed <span title={formatDateTime(health.recoveredFrom.timestamp)}>{timeAgo(health.recoveredFrom.timestamp)}</span> (
              {failureSummary(health.recoveredFrom)}).
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
  );
}
