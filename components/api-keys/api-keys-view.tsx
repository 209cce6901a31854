"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CodeSnippet } from "@/components/ui/code";
import { ConfirmRemoval } from "@/components/ui/confirm";
import { CopyButton, CopyField } from "@/components/ui/copy";
import { DocsLink } from "@/components/ui/docs-link";
import { Field, Input } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { KeyIcon, TrashIcon } from "@/components/ui/icons";
import { ListPage } from "@/components/ui/list-page";
import { Modal, ModalBody, ModalFooter } from "@/components/ui/modal";
import { ShownOnceNotice } from "@/components/ui/shown-once";
import { FormErrors } from "@/components/ui/states";
import { formatDateTime, timeAgo } from "@/lib/client/format";
import type { ApiKeyCreated } from "@/lib/api-keys/schema";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "@/lib/client/hooks";
import { useOrigin } from "@/lib/client/location";
import type { ApiKey } from "@/lib/api-keys/schema";

export function ApiKeysView() {
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <>
      <ListPage
        title="API keys"
        description={
          <>
            Keys let your own servers and scripts call the Castline API. Send one as{" "}
            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-700">Authorization: Bearer &lt;key&gt;</code>. Every call is described
            in the <DocsLink />.
          </>
        }
        create={{ label: "Create API key", onClick: () => setCreating(true) }}
        query={keys}
        items={keys.data}
        empty={{
          icon: <KeyIcon className="size-6" />,
          title: "No API keys yet",
          description: "Create a key to manage streams, assets and webhooks from your backend or the command line.",
        }}
      >
        {(items) => (
          <Card className="overflow-hidden">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs font-medium text-zinc-500">
                <tr>
                  <th className="px-5 py-2.5 font-medium">Name</th>
                  <th className="hidden px-5 py-2.5 font-medium lg:table-cell">Browser origins</th>
                  <th className="hidden px-5 py-2.5 font-medium md:table-cell">Created</th>
                  <th className="hidden px-5 py-2.5 font-medium md:table-cell">Last used</th>
                  <th className="px-5 py-2.5">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {items.map((key) => (
                  <tr key={key.id} className="hover:bg-zinc-50/60">
                    <td className="px-5 py-3.5">
                      <div className="font-medium text-zinc-900">{key.name}</div>
                      <code className="font-mono text-xs text-zinc-500">{key.prefix}…</code>
                      {/* Narrow screens have no room for the date columns: the dates stack under the name. */}
                      <p className="mt-1 text-xs text-zinc-500 md:hidden" data-testid="api-key-dates">
                        <span title={formatDateTime(key.createdAt)}>Created {timeAgo(key.createdAt)}</span>
                        {" · "}
                        {key.lastUsedAt ? <span title={formatDateTime(key.lastUsedAt)}>last used {timeAgo(key.lastUsedAt)}</span> : "never used"}
                      </p>
                    </td>
                    <td className="hidden px-5 py-3.5 lg:table-cell">
                      {key.allowedOrigins ? (
                        <ul className="space-y-0.5 font-mono text-xs text-zinc-600">
                          {key.allowedOrigins.map((origin) => (
                            <li key={origin}>{origin}</li>
                          ))}
                        </ul>
                      ) : (
                        <span className="text-zinc-400">Servers only</span>
                      )}
                    </td>
                    <td className="hidden px-5 py-3.5 text-zinc-600 md:table-cell" title={formatDateTime(key.createdAt)}>
                      {timeAgo(key.createdAt)}
                    </td>
                    <td className="hidden px-5 py-3.5 md:table-cell">
                      {key.lastUsedAt ? (
                        <span className="text-zinc-600" title={formatDateTime(key.lastUsedAt)}>
                          {timeAgo(key.lastUsedAt)}
                        </span>
                      ) : (
                        <span className="text-zinc-400">Never</span>
                      )}
                    </td>
                    <td className="px-5 py-3.5 text-right">
                      <Button variant="dangerGhost" size="sm" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                        <TrashIcon /> Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        )}
      </ListPage>

      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeApiKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  const close = () => {
    setCreated(null);
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const allowedOrigins = String(form.get("allowedOrigins") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    create.mutate({ name: name || "API key", ...(allowedOrigins.length ? { allowedOrigins } : {}) }, { onSuccess: setCreated });
  };

  if (created) {
    return (
      <Modal open={open} onClose={close} title="Your new API key" dismissible={false}>
        <ModalBody>
          <ShownOnceNotice>
            Copy this key now and keep it somewhere safe. <strong>You will not be able to see it again.</strong>
          </ShownOnceNotice>
          <div>
            <p className="mb-1.5 text-sm font-medium text-zinc-800">{created.name}</p>
            <CopyField value={created.key} label="API key" testId="new-api-key" />
          </div>
          <CurlExample apiKey={created.key} />
        </ModalBody>
        <ModalFooter>
          <CopyButton value={created.key} label="Copy key" size="md" />
          <Button variant="primary" onClick={close}>
            I&apos;ve saved it
          </Button>
        </ModalFooter>
      </Modal>
    );
  }

  return (
    <Modal open={open} onClose={close} title="Create API key" description="Name it after where it will be used, so you know what to revoke later.">
      <form onSubmit={submit}>
        <ModalBody>
          <FormErrors error={create.error} />
          <Field label="Name" htmlFor="api-key-name">
            <Input id="api-key-name" name="name" placeholder="Production server" autoFocus maxLength={100} />
          </Field>
          <Field
            label="Browser origins"
            htmlFor="api-key-origins"
            optional
            hint="Web pages on these origins may use the key to create upload URLs, and for nothing else. Leave empty for a key used by servers."
          >
            <Input id="api-key-origins" name="allowedOrigins" placeholder="https://example.com, https://app.example.com" />
          </Field>
        </ModalBody>
        <FormFooter submit="Create key" pending={create.isPending} onCancel={close} />
      </form>
    </Modal>
  );
}

function CurlExample({ apiKey }: { apiKey: string }) {
  const origin = useOrigin();
  return (
    <CodeSnippet title="Try it" value={`curl -H "Authorization: Bearer ${apiKey}" ${origin}/api/stream`} copyLabel="Copy command">
      <span className="text-zinc-500">$ </span>
      {`curl -H "Authorization: Bearer ${apiKey.slice(0, 8)}…" \\\n    ${origin}/api/stream`}
    </CodeSnippet>
  );
}

function RevokeApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmRemoval item={apiKey} onClose={onClose} remove={revoke} title="Revoke API key?" confirmLabel="Revoke key">
      Anything using <strong className="font-semibold text-zinc-900">{apiKey?.name}</strong> (<code className="font-mono text-xs">{apiKey?.prefix}…</code>) will
      stop working immediately. This cannot be undone.
    </ConfirmRemoval>
  );
}
