"use client";

import { useEffect, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, LinkButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Checkbox, Field, Select } from "@/components/ui/field";
import { PlusIcon, ShareIcon, XIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { useMultistreamStatus, useTargets, useUpdateStream } from "@/lib/client/hooks";
import type { Stream, TargetRef } from "@/lib/streams/schema";
import type { TargetStatus } from "@/lib/targets/schema";

/** Which targets this stream forwards to, which rendition each one gets, and while live how each push is doing. */
export function MultistreamCard({ stream, live }: { stream: Stream; live: boolean }) {
  const targets = useTargets();
  const update = useUpdateStream(stream.id);
  const status = useMultistreamStatus(stream.id, live);
  // The server's clock minus ours, so a countdown to retryAt is right whatever this machine's time.
  const skew = status.data ? status.data.checkedAt - status.dataUpdatedAt : 0;
  const statusOf = new Map((live ? (status.data?.targets ?? []) : []).map((t) => [t.id, t]));
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
                const push = statusOf.get(ref.id);
                return (
                  <li key={ref.id} aria-label={target?.name ?? ref.id} className="flex flex-wrap items-center gap-3 px-5 py-3">
                    <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                      <ShareIcon className="size-4" />
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                        <span className="max-w-full truncate text-sm font-medium text-zinc-900">{target?.name ?? "Unknown target"}</span>
                        {target && <span className="max-w-full truncate font-mono text-xs text-zinc-500">{target.host}</span>}
                      </span>
                      <span className="mt-0.5 flex flex-wrap gap-1.5">
                        <Badge className="font-mono">{ref.profile}</Badge>
                        {ref.videoOnly && <Badge tone="amber">video only</Badge>}
                        {target?.disabled && <Badge tone="red">target disabled</Badge>}
                      </span>
                      {push && <PushState push={push} skew={skew} />}
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

const STATE_LABELS = {
  waiting: "Waiting for the media node",
  connecting: "Connecting…",
  connected: "Connected",
  retrying: "Error",
  error: "Error",
  disconnected: "Disconnected",
} as const;

/** What the push to one target is doing while live; the error as the media node gave it (without the key). */
function PushState({ push, skew }: { push: TargetStatus; skew: number }) {
  if (push.state === "offline" || push.state === "disabled") return null;
  const tone =
    push.state === "connected" ? "green" : push.state === "retrying" || push.state === "error" ? "red" : push.state === "connecting" ? "indigo" : "neutral";
  return (
    <span data-testid="push-state" data-state={push.state} className="mt-1.5 block text-xs">
      <span className="flex flex-wrap items-center gap-1.5">
        <Badge tone={tone}>
          {push.state === "connected" && <span className="size-1.5 animate-pulse rounded-full bg-emerald-500" aria-hidden />}
          {STATE_LABELS[push.state]}
        </Badge>
        {push.state === "retrying" && push.retryAt !== undefined && <RetryCountdown at={push.retryAt} skew={skew} />}
      </span>
      {push.error && (
        <span className={push.state === "connecting" ? "mt-1 block break-words text-zinc-500" : "mt-1 block break-words text-red-700"}>
          {push.state === "connecting" ? "Last attempt: " : ""}
          {push.error}
        </span>
      )}
    </span>
  );
}

/** "retrying in N s", counting down every second between polls. */
function RetryCountdown({ at, skew }: { at: number; skew: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.ceil((at - (now + skew)) / 1000);
  return <span className="text-amber-800">{seconds > 0 ? `retrying in ${seconds} s` : "retrying now"}</span>;
}
