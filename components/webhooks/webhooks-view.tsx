"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy";
import { cx } from "@/components/ui/cx";
import { DocsLink } from "@/components/ui/docs-link";
import { FormFooter } from "@/components/ui/form-footer";
import { AlertIcon, ChevronRightIcon, WebhookIcon } from "@/components/ui/icons";
import { ListPage, RowIcon } from "@/components/ui/list-page";
import { Modal, ModalBody, ModalFooter } from "@/components/ui/modal";
import { ShownOnceNotice } from "@/components/ui/shown-once";
import { formatDateTime, timeAgo } from "@/lib/client/format";
import type { WebhookCreated } from "@/lib/webhooks/schema";
import { useCreateWebhook, useWebhooks } from "@/lib/client/hooks";
import type { Webhook } from "@/lib/webhooks/schema";
import { WebhookFields } from "./webhook-form";
import { failureSummary, webhookHealth, WebhookHealthBadge } from "./webhook-health";

export function WebhooksView() {
  const webhooks = useWebhooks();
  const [creating, setCreating] = useState(false);

  return (
    <>
      <ListPage
        title="Webhooks"
        description={
          <>
            Castline calls your endpoint when something happens: a stream goes live, a recording is ready, an upload finishes. Each call is signed with the
            webhook&apos;s secret: how to check it is in the Webhooks guide of the <DocsLink>API docs</DocsLink>.
          </>
        }
        create={{ label: "Add webhook", onClick: () => setCreating(true) }}
        query={webhooks}
        items={webhooks.data}
        empty={{
          icon: <WebhookIcon className="size-6" />,
          title: "No webhooks yet",
          description: "Get notified the moment you go live, a recording is ready or a task finishes: add an endpoint and choose the events.",
        }}
      >
        {(items) => (
          <ul aria-label="Webhooks" className="divide-y divide-zinc-100 overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-zinc-200">
            {items.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} />
            ))}
          </ul>
        )}
      </ListPage>

      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const health = webhookHealth(webhook);
  const failing = health.state === "failing";
  const shown = webhook.events.slice(0, 3);
  return (
    <li className={cx("relative", failing && "bg-red-50/40")}>
      {failing && <span className="absolute inset-y-0 left-0 w-0.5 bg-red-500" aria-hidden="true" />}
      <Link href={`/webhooks/${webhook.id}`} className="group flex items-center gap-4 px-4 py-4 transition-colors hover:bg-zinc-50 sm:px-5">
        <RowIcon icon={failing ? AlertIcon : WebhookIcon} colors={failing ? "bg-red-100 text-red-600" : "bg-indigo-50 text-indigo-600"} />
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="truncate font-medium text-zinc-900">{webhook.name}</span>
            <WebhookHealthBadge health={health} />
            {failing && <span className="truncate text-xs font-medium text-red-700">{failureSummary(health.failure)}</span>}
          </span>
          <span className="mt-0.5 block truncate font-mono text-xs text-zinc-500">{webhook.url}</span>
          <span className="mt-1.5 flex flex-wrap gap-1.5">
            {shown.map((e) => (
              <Badge key={e} tone="indigo" className="font-mono">
                {e}
              </Badge>
            ))}
            {webhook.events.length > shown.length && <Badge>+{webhook.events.length - shown.length} more</Badge>}
          </span>
        </span>
        <span className="hidden shrink-0 text-right text-xs text-zinc-500 sm:block">
          {health.state === "unused" ? (
            <span title={formatDateTime(webhook.createdAt)}>Added {timeAgo(webhook.createdAt)}</span>
          ) : (
            <>
              <span className="block text-zinc-400">{failing ? "Failed" : "Last delivery"}</span>
              <span className={cx("block font-medium", failing ? "text-red-700" : "text-zinc-700")} title={formatDateTime(health.lastDeliveryAt)}>
                {timeAgo(health.lastDeliveryAt)}
              </span>
            </>
          )}
        </span>
        <ChevronRightIcon className="size-4 shrink-0 text-zinc-300 group-hover:text-zinc-500" />
      </Link>
    </li>
  );
}

function CreateWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateWebhook();
  const [created, setCreated] = useState<WebhookCreated | null>(null);

  const close = () => {
    setCreated(null);
    create.reset();
    onClose();
  };

  if (created) {
    return (
      <Modal open={open} onClose={close} title="Webhook added" dismissible={false}>
        <ModalBody>
          <p className="text-sm text-zinc-600">
            <strong className="font-semibold text-zinc-900">{created.name}</strong> will receive {created.events.length} event
            {created.events.length === 1 ? "" : "s"}. Check each call&apos;s signature with this signing secret.
          </p>
          <div>
            <p className="mb-1.5 text-sm font-medium text-zinc-800">Signing secret</p>
            <CopyField value={created.sharedSecret} label="signing secret" testId="webhook-secret" />
          </div>
          <ShownOnceNotice>
            Copy it now: <strong>this is the only time the secret is shown.</strong>
          </ShownOnceNotice>
        </ModalBody>
        <ModalFooter>
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        </ModalFooter>
      </Modal>
    );
  }

  return (
    <Modal open={open} onClose={close} title="Add a webhook" description="Choose where Castline should send events, and which ones." wide>
      <WebhookFields
        error={create.error}
        bodyClassName="px-6 py-5"
        onSubmit={(values) => create.mutate(values, { onSuccess: setCreated })}
        footer={<FormFooter submit="Add webhook" pending={create.isPending} onCancel={close} />}
      />
    </Modal>
  );
}
