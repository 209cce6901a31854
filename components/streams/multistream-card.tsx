"use client";

import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, LinkButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Checkbox, Field, Select } from "@/components/ui/field";
import { PlusIcon, ShareIcon, XIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { useTargets, useUpdateStream } from "@/lib/client/hooks";
import type { Stream, TargetRef } from "@/lib/streams/schema";

/** Which targets this stream forwards to, and which rendition each one gets. */
export function MultistreamCard({ stream }: { stream: Stream }) {
  const targets = useTargets();
  const update = useUpdateStream(stream.id);
  const refs = stream.multistream.targets;
  const byId = new Map((targets.data ?? []).map((t) => [t.id, t]));
  const available = (targets.data ?? []).filter((t) => !refs.some((r) => r.id === t.id));
  const renditions = ["source", ...stream.profiles.map((p) => p.name)];

  const save = (next: TargetRef[]) => update.mutate({ multistream: { targets: next } });

  return (
    <Card>
      <CardHeader
        icon={<ShareIcon className="size-4" />}
        title="Multistream"
        description="Forward this stream to YouTube, Twitch or any RTMP/SRT destination while you are live."
        action={
          <LinkButton href="/targets" variant="ghost" size="sm">
            Manage targets
          </LinkButton>
        }
      />
      {targets.isPending ? (
        <LoadingState compact />
      ) : (
        <>
          {refs.length > 0 && (
            <ul aria-label="Attached targets" className="divide-y divide-zinc-100 border-b border-zinc-100">
              {refs.map((ref) => {
                const target = byId.get(ref.id);
                return (
                  <li key={ref.id} className="flex flex-wrap items-center gap-3 px-5 py-3">
                    <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                      <ShareIcon className="size-4" />
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm font-medium text-zinc-900">{target?.name ?? "Unknown target"}</span>
                      <span className="mt-0.5 flex flex-wrap gap-1.5">
                        <Badge className="font-mono">{ref.profile}</Badge>
                        {ref.videoOnly && <Badge tone="amber">video only</Badge>}
                        {target?.disabled && <Badge tone="red">target disabled</Badge>}
                      </span>
                    </span>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Detach ${target?.name ?? ref.id}`}
                      disabled={update.isPending}
                      onClick={() => save(refs.filter((r) => r.id !== ref.id))}
                    >
                      <XIcon /> Detach
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <CardBody className="space-y-3">
            <FormErrors error={update.error ?? targets.error} />
            {targets.data?.length === 0 ? (
              <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-zinc-50 px-4 py-3 ring-1 ring-zinc-200 ring-inset">
                <p className="text-sm text-zinc-600">Add a destination (its RTMP URL and key) before you can forward to it.</p>
                <LinkButton href="/targets" size="sm" variant="primary">
                  <PlusIcon /> Add a target
                </LinkButton>
              </div>
            ) : available.length === 0 ? (
              <p className="text-sm text-zinc-500">Every one of your targets is attached to this stream.</p>
            ) : (
              <AttachForm
                key={refs.length}
                targets={available}
                renditions={renditions}
                pending={update.isPending}
                empty={refs.length === 0}
                onAttach={(ref) => save([...refs, ref])}
              />
            )}
          </CardBody>
        </>
      )}
    </Card>
  );
}

function AttachForm({
  targets,
  renditions,
  pending,
  empty,
  onAttach,
}: {
  targets: { id: string; name: string; disabled: boolean }[];
  renditions: string[];
  pending: boolean;
  empty: boolean;
  onAttach: (ref: TargetRef) => void;
}) {
  const [targetId, setTargetId] = useState(targets[0].id);
  const [profile, setProfile] = useState(renditions[0]);
  const [videoOnly, setVideoOnly] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAttach(videoOnly ? { id: targetId, profile, videoOnly } : { id: targetId, profile });
  };

  return (
    <form onSubmit={submit} aria-label="Attach a target">
      {empty && <p className="mb-3 text-sm text-zinc-500">Not forwarding anywhere yet. Pick a target to send this stream to:</p>}
      <div className="grid gap-3 sm:grid-cols-[1.4fr_1fr_auto] sm:items-end">
        <Field label="Target" htmlFor="attach-target">
          <Select id="attach-target" value={targetId} onChange={(e) => setTargetId(e.target.value)}>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
                {t.disabled ? " (disabled)" : ""}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Rendition" htmlFor="attach-profile">
          <Select id="attach-profile" value={profile} onChange={(e) => setProfile(e.target.value)}>
            {renditions.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" variant="primary" pending={pending}>
          <PlusIcon /> Attach
        </Button>
      </div>
      <Checkbox
        className="mt-3"
        label="Video only"
        description="Leave the audio out, for destinations that take pictures only."
        checked={videoOnly}
        onChange={(e) => setVideoOnly(e.target.checked)}
      />
    </form>
  );
}
