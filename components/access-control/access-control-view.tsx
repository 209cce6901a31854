"use client";

import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmRemoval } from "@/components/ui/confirm";
import { CopyButton, CopyField } from "@/components/ui/copy";
import { Field, Input } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { KeyIcon, PencilIcon, TrashIcon } from "@/components/ui/icons";
import { ListPage } from "@/components/ui/list-page";
import { Modal, ModalBody, ModalFooter } from "@/components/ui/modal";
import { ShownOnceNotice } from "@/components/ui/shown-once";
import { FormErrors } from "@/components/ui/states";
import { TimeAgo } from "@/components/ui/time-ago";
import {
  useCreateSigningKey,
  useDeleteSigningKey,
  useSigningKeys,
  useUpdateSigningKey,
  type SigningKey,
  type SigningKeyCreated,
} from "@/lib/client/access-hooks";
import { keyFingerprint } from "@/lib/client/viewer-token";
import { TestTokenCard } from "./test-token-card";

export function AccessControlView() {
  const signingKeys = useSigningKeys();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<SigningKey | null>(null);
  const [deleting, setDeleting] = useState<SigningKey | null>(null);
  // The private key of a key made in this visit: the token helper starts with it (and keeps it for this tab).
  const [fresh, setFresh] = useState<SigningKeyCreated | null>(null);

  return (
    <>
      <ListPage
        title="Access control"
        description={
          <>
            Make streams and videos private: viewers then need a token signed with one of these keys (a JWT), or your webhook&apos;s yes. Choose who can watch
            on each stream&apos;s or video&apos;s page.
          </>
        }
        create={{ label: "Create signing key", onClick: () => setCreating(true) }}
        query={signingKeys}
        items={signingKeys.data}
        empty={{
          icon: <KeyIcon className="size-6" />,
          title: "No signing keys yet",
          description: "Create a key to sign viewer tokens on your server. Castline keeps only its public half.",
        }}
      >
        {(items) => (
          <Card className="overflow-hidden">
            <CardHeader
              icon={<KeyIcon className="size-4" />}
              title="Signing keys"
              description="Tokens signed with a disabled key are refused until you enable it again."
            />
            <ul aria-label="Signing keys" className="divide-y divide-zinc-100">
              {items.map((key) => (
                <SigningKeyRow key={key.id} signingKey={key} onRename={() => setRenaming(key)} onDelete={() => setDeleting(key)} />
              ))}
            </ul>
          </Card>
        )}
      </ListPage>

      {!!signingKeys.data?.length && <TestTokenCard key={fresh?.id} signingKeys={signingKeys.data} privateKey={fresh?.privateKey} className="mt-6" />}

      <CreateSigningKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={setFresh} />
      <RenameSigningKeyDialog signingKey={renaming} onClose={() => setRenaming(null)} />
      <DeleteSigningKeyDialog signingKey={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

function SigningKeyRow({ signingKey: key, onRename, onDelete }: { signingKey: SigningKey; onRename: () => void; onDelete: () => void }) {
  const update = useUpdateSigningKey();
  return (
    <li data-testid="signing-key" className="px-5 py-3.5">
      <div className="flex flex-col gap-x-4 gap-y-2 sm:flex-row sm:items-center">
        <span
          className={`hidden size-10 shrink-0 items-center justify-center rounded-lg sm:flex ${key.disabled ? "bg-zinc-100 text-zinc-400" : "bg-indigo-50 text-indigo-600"}`}
        >
          <KeyIcon className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="min-w-0 truncate font-medium text-zinc-900">{key.name}</span>
            {key.disabled ? <Badge tone="amber">Disabled</Badge> : <Badge tone="green">Enabled</Badge>}
          </p>
          <p className="mt-0.5 flex items-center gap-1 text-xs text-zinc-500">
            <code className="font-mono text-zinc-600" title="The start of its public key">
              {keyFingerprint(key.publicKey)}…
            </code>
            <CopyButton value={key.publicKey} iconOnly variant="ghost" ariaLabel={`Copy the public key of ${key.name}`} className="-my-1.5 size-7" />
          </p>
          <p className="text-xs text-zinc-500">
            Created <TimeAgo at={key.createdAt} /> ·{" "}
            {key.lastSeen ? (
              <>
                last used <TimeAgo at={key.lastSeen} />
              </>
            ) : (
              "never used"
            )}
          </p>
        </div>
        <div className="-ml-2.5 flex shrink-0 items-center gap-1 sm:ml-0">
          <Button variant="ghost" size="sm" onClick={onRename} aria-label={`Rename ${key.name}`} title="Rename">
            <PencilIcon /> Rename
          </Button>
          <Button
            variant="ghost"
            size="sm"
            pending={update.isPending}
            onClick={() => update.mutate({ id: key.id, patch: { disabled: !key.disabled } })}
            aria-label={`${key.disabled ? "Enable" : "Disable"} ${key.name}`}
          >
            {key.disabled ? "Enable" : "Disable"}
          </Button>
          <Button variant="dangerGhost" size="sm" onClick={onDelete} aria-label={`Delete ${key.name}`} title="Delete">
            <TrashIcon /> Delete
          </Button>
        </div>
      </div>
      <FormErrors error={update.error} className="mt-3" />
    </li>
  );
}

function CreateSigningKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (key: SigningKeyCreated) => void }) {
  const create = useCreateSigningKey();
  const [created, setCreated] = useState<SigningKeyCreated | null>(null);

  const close = () => {
    setCreated(null);
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    create.mutate(name || undefined, {
      onSuccess: (key) => {
        setCreated(key);
        onCreated(key);
      },
    });
  };

  if (created) {
    return (
      <Modal open={open} onClose={close} title="Your new signing key" dismissible={false} wide>
        <ModalBody>
          <ShownOnceNotice>
            Copy the private key now and store it as a secret on your server. <strong>You will not be able to see it again:</strong> Castline keeps only the
            public key. Anyone with the private key can let anyone watch your private content.
          </ShownOnceNotice>
          <div>
            <p className="mb-1.5 text-sm font-medium text-zinc-800">Private key of {created.name}</p>
            <CopyField value={created.privateKey} label="private key" secret testId="new-private-key" />
            <p className="mt-1.5 text-xs text-zinc-500">Base64 of a PKCS8 PEM (ES256, P-256). Sign tokens with it on your server.</p>
          </div>
          <div>
            <p className="mb-1.5 text-sm font-medium text-zinc-800">Public key</p>
            <CopyField value={created.publicKey} label="public key" testId="new-public-key" />
            <p className="mt-1.5 text-xs text-zinc-500">
              Goes in each token&apos;s <code className="font-mono">pub</code> claim.
            </p>
          </div>
        </ModalBody>
        <ModalFooter>
          <CopyButton value={created.privateKey} label="Copy private key" size="md" />
          <Button variant="primary" onClick={close}>
            I&apos;ve saved it
          </Button>
        </ModalFooter>
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create signing key"
      description="A key pair for signing viewer tokens. Name it after the server that will sign with it."
    >
      <form onSubmit={submit}>
        <ModalBody>
          <FormErrors error={create.error} />
          <Field label="Name" htmlFor="signing-key-name" optional>
            <Input id="signing-key-name" name="name" placeholder="Production backend" autoFocus maxLength={100} />
          </Field>
        </ModalBody>
        <FormFooter submit="Create key" pending={create.isPending} onCancel={close} />
      </form>
    </Modal>
  );
}

function RenameSigningKeyDialog({ signingKey, onClose }: { signingKey: SigningKey | null; onClose: () => void }) {
  const update = useUpdateSigningKey();
  const close = () => {
    update.reset();
    onClose();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    if (signingKey) update.mutate({ id: signingKey.id, patch: { name } }, { onSuccess: close });
  };
  return (
    <Modal open={signingKey !== null} onClose={close} title="Rename signing key">
      <form onSubmit={submit}>
        <ModalBody>
          <FormErrors error={update.error} />
          <Field label="Name" htmlFor="signing-key-rename">
            <Input id="signing-key-rename" name="name" defaultValue={signingKey?.name} required autoFocus maxLength={100} />
          </Field>
        </ModalBody>
        <FormFooter submit="Save" pending={update.isPending} onCancel={close} />
      </form>
    </Modal>
  );
}

function DeleteSigningKeyDialog({ signingKey, onClose }: { signingKey: SigningKey | null; onClose: () => void }) {
  const remove = useDeleteSigningKey();
  return (
    <ConfirmRemoval item={signingKey} onClose={onClose} remove={remove} title="Delete signing key?" confirmLabel="Delete key">
      Tokens signed with <strong className="font-semibold text-zinc-900">{signingKey?.name}</strong> will be refused at once, including those viewers hold now.
      To stop them for a while only, disable the key instead. This cannot be undone.
    </ConfirmRemoval>
  );
}
