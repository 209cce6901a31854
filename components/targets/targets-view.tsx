"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmRemoval } from "@/components/ui/confirm";
import { cx } from "@/components/ui/cx";
import { Field, Input } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { PencilIcon, ShareIcon, ShieldIcon, TrashIcon } from "@/components/ui/icons";
import { ListPage, RowIcon } from "@/components/ui/list-page";
import { Modal, ModalBody } from "@/components/ui/modal";
import { FormErrors } from "@/components/ui/states";
import { formatDateTime, timeAgo } from "@/lib/client/format";
import { useCreateTarget, useDeleteTarget, useTargets, useUpdateTarget } from "@/lib/client/hooks";
import type { Target, TargetPatch } from "@/lib/targets/schema";

/** Ingest addresses of popular platforms; the creator appends their own stream key. */
const PLATFORMS = [
  { name: "YouTube", url: "rtmp://a.rtmp.youtube.com/live2/" },
  { name: "Twitch", url: "rtmp://live.twitch.tv/app/" },
  { name: "Facebook", url: "rtmps://live-api-s.facebook.com:443/rtmp/" },
];

export function TargetsView() {
  const targets = useTargets();
  const update = useUpdateTarget();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<Target | null>(null);

  return (
    <>
      <ListPage
        title="Multistream targets"
        description="Destinations your streams can be forwarded to while you are live. Attach them to a stream on its page."
        create={{ label: "Add target", onClick: () => setCreating(true) }}
        query={targets}
        items={targets.data}
        empty={{
          icon: <ShareIcon className="size-6" />,
          title: "Reach every platform at once",
          description: "Add YouTube, Twitch, Facebook or any RTMP/SRT destination, then forward your streams to them with one click.",
        }}
      >
        {(items) => (
          <>
            <FormErrors error={update.error} className="mb-4" />
            <Card className="overflow-hidden">
              <ul aria-label="Multistream targets" className="divide-y divide-zinc-100">
                {items.map((target) => (
                  <li key={target.id} aria-label={target.name} className="flex flex-wrap items-center gap-4 px-5 py-4">
                    <RowIcon icon={ShareIcon} colors={target.disabled ? "bg-zinc-100 text-zinc-400" : "bg-indigo-50 text-indigo-600"} />
                    <span className="min-w-[10rem] flex-1">
                      <span className="flex items-center gap-2">
                        <span className={cx("truncate font-medium", target.disabled ? "text-zinc-500" : "text-zinc-900")}>{target.name}</span>
                        {target.disabled ? <Badge>Disabled</Badge> : <Badge tone="green">Enabled</Badge>}
                      </span>
                      <span className="mt-0.5 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-zinc-500">
                        <span className="font-mono text-zinc-600" data-testid="target-host">
                          {target.host}
                        </span>
                        <span title={formatDateTime(target.createdAt)}>Added {timeAgo(target.createdAt)}</span>
                      </span>
                      <TargetStreams streams={target.streams} />
                    </span>
                    <span className="-mr-2 ml-auto flex items-center gap-1">
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ id: target.id, patch: { disabled: !target.disabled } })}
                      >
                        {target.disabled ? "Enable" : "Disable"}
                      </Button>
                      <Button variant="ghost" size="sm" onClick={() => setEditing(target)} aria-label={`Edit ${target.name}`}>
                        <PencilIcon /> Edit
                      </Button>
                      <Button variant="dangerGhost" size="sm" onClick={() => setDeleting(target)} aria-label={`Delete ${target.name}`}>
                        <TrashIcon /> Delete
                      </Button>
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          </>
        )}
      </ListPage>

      <TargetDialog open={creating} onClose={() => setCreating(false)} />
      <TargetDialog open={editing !== null} target={editing ?? undefined} onClose={() => setEditing(null)} />
      <DeleteTargetDialog target={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

/** The streams that forward to a target, each a link to its page. */
function TargetStreams({ streams }: { streams: Target["streams"] }) {
  if (!streams.length) return <span className="mt-1 block text-xs text-zinc-400">Not used by any stream</span>;
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-zinc-500">
      Used by
      {streams.map((stream) => (
        <Link
          key={stream.id}
          href={`/streams/${stream.id}`}
          className="max-w-[14rem] truncate rounded-md bg-zinc-50 px-1.5 py-0.5 font-medium text-indigo-700 ring-1 ring-zinc-200 ring-inset hover:bg-indigo-50 hover:ring-indigo-200"
        >
          {stream.name}
        </Link>
      ))}
    </span>
  );
}

/** Creates a target, or edits one (a blank URL keeps the current one, which cannot be read back). */
function TargetDialog({ open, target, onClose }: { open: boolean; target?: Target; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={target ? `Edit ${target.name}` : "Add a multistream target"}
      description={target ? undefined : "Where should your streams be forwarded? Paste the platform's server URL followed by your stream key."}
    >
      <TargetForm target={target} onClose={onClose} />
    </Modal>
  );
}

function TargetForm({ target, onClose }: { target?: Target; onClose: () => void }) {
  const create = useCreateTarget();
  const update = useUpdateTarget();
  const [name, setName] = useState(target?.name ?? "");
  const [url, setUrl] = useState("");
  const mutation = target ? update : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target) {
      const patch: TargetPatch = {};
      if (name.trim() && name.trim() !== target.name) patch.name = name.trim();
      if (url.trim()) patch.url = url.trim();
      if (!Object.keys(patch).length) return onClose();
      update.mutate({ id: target.id, patch }, { onSuccess: onClose });
    } else {
      create.mutate({ url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}) }, { onSuccess: onClose });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <ModalBody>
        <FormErrors error={mutation.error} />
        {!target && (
          <div>
            <p className="mb-2 text-xs font-medium text-zinc-500">Start from a platform</p>
            <div className="flex flex-wrap gap-2">
              {PLATFORMS.map((p) => (
                <button
                  key={p.name}
                  type="button"
                  onClick={() => {
                    setUrl(p.url);
                    if (!name.trim()) setName(p.name);
                  }}
                  className="rounded-full bg-white px-3 py-1 text-xs font-medium text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-50 hover:ring-zinc-400"
                >
                  {p.name}
                </button>
              ))}
            </div>
          </div>
        )}
        <Field
          label={target ? "New ingest URL" : "Ingest URL"}
          htmlFor="target-url"
          optional={!!target}
          hint={
            target
              ? "The current URL is kept secret and cannot be shown. Leave this blank to keep it."
              : "rtmp://, rtmps:// or srt://, including your stream key on that platform."
          }
        >
          <Input
            id="target-url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="rtmp://a.rtmp.youtube.com/live2/xxxx-xxxx-xxxx"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            autoFocus={!target}
          />
        </Field>
        <Field label="Name" htmlFor="target-name" optional={!target} hint={target ? undefined : "Defaults to the server's host name."}>
          <Input id="target-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="My YouTube channel" maxLength={200} />
        </Field>
        {!target && (
          <p className="flex gap-2 text-xs text-zinc-500">
            <ShieldIcon className="size-4 shrink-0 text-zinc-400" />
            The URL holds your key on that platform, so Castline never shows it again after you save it.
          </p>
        )}
      </ModalBody>
      <FormFooter submit={target ? "Save changes" : "Add target"} pending={mutation.isPending} onCancel={onClose} />
    </form>
  );
}

function DeleteTargetDialog({ target, onClose }: { target: Target | null; onClose: () => void }) {
  const remove = useDeleteTarget();
  return (
    <ConfirmRemoval item={target} onClose={onClose} remove={remove} title="Delete target?" confirmLabel="Delete target">
      Streams will no longer be able to forward to <strong className="font-semibold text-zinc-900">{target?.name}</strong>. This cannot be undone.
    </ConfirmRemoval>
  );
}
