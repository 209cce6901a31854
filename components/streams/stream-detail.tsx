"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { PlaybackPolicyCard } from "@/components/access-control/playback-policy-card";
import { ViewershipCard } from "@/components/analytics/viewership-card";
import { PlayerLink, WatchAndShareCard } from "@/components/player/watch-and-share";
import { StreamStatus } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm";
import { CopyField } from "@/components/ui/copy";
import { DangerZone, DetailColumns, DetailFact, DetailFacts, DetailHeader, DetailPage, DetailsCard, LabeledValue } from "@/components/ui/detail-page";
import { Input } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { AlertIcon, BroadcastIcon, ExternalLinkIcon, KeyIcon, LayersIcon, PauseIcon, PencilIcon } from "@/components/ui/icons";
import { Modal, ModalBody } from "@/components/ui/modal";
import { RenameButton } from "@/components/ui/rename-dialog";
import { Switch } from "@/components/ui/switch";
import { EmptyState, FormErrors, LoadingState } from "@/components/ui/states";
import { policyOf } from "@/lib/client/access-hooks";
import { formatBitrate, formatDateTime, timeAgo } from "@/lib/client/format";
import { useDeleteStream, useRotateStreamKey, useStreamBroadcasts, useUpdateStream } from "@/lib/client/hooks";
import { useIngestUrl } from "@/lib/client/location";
import type { Session } from "@/lib/sessions/schema";
import type { Stream } from "@/lib/streams/schema";
import { BroadcastRow } from "@/components/broadcasts/broadcast-row";
import { LoadMore } from "@/components/ui/list-page";
import { BrowserBroadcastCard } from "./browser-broadcast-card";
import { ClipsCard } from "./clips-card";
import { IngestHealthCard } from "./ingest-health-card";
import { LivePreviewCard } from "./live-preview-card";
import { MultistreamCard } from "./multistream-card";
import { choiceOf, profilesOf, RenditionsEditor } from "./renditions-editor";

type Sessions = ReturnType<typeof useStreamBroadcasts>["sessions"];

export function StreamDetail({ id }: { id: string }) {
  const { stream, sessions } = useStreamBroadcasts(id);
  return (
    <DetailPage query={stream} noun="stream" list={{ href: "/streams", label: "Streams" }}>
      {(stream) => <StreamPage stream={stream} sessions={sessions} />}
    </DetailPage>
  );
}

function StreamPage({ stream, sessions }: { stream: Stream; sessions: Sessions }) {
  const remove = useDeleteStream();
  // The encoder is connected (its session is live) before the first segments make the stream playable.
  const list = sessions.data?.pages.flatMap((p) => p.items);
  const current = list?.find((s) => s.isActive);
  const starting = !stream.isActive && !!current;
  return (
    <>
      <DetailHeader
        title={stream.name}
        status={<StreamStatus isActive={stream.isActive} starting={starting} suspended={stream.suspended} testId="stream-status" />}
        description={`Created ${formatDateTime(stream.createdAt)}${stream.lastSeen ? ` · last live ${timeAgo(stream.lastSeen)}` : " · never live yet"}`}
        actions={<RenameStream stream={stream} />}
      />

      {stream.suspended && (
        <div role="status" className="mb-6 flex items-start gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
          <PauseIcon className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <p>
            <strong className="font-semibold">This stream is suspended.</strong> Encoders using its key are refused until you turn suspension off below.
          </p>
        </div>
      )}

      <DetailColumns
        main={
          <>
            <LivePreviewCard stream={stream} starting={starting} />
            {/* Before the broadcasts: on a phone, the feed's health comes first. */}
            <IngestHealthCard stream={stream} session={current ?? list?.[0]} />
            <ConnectCard stream={stream} />
            {stream.streamKey && <BrowserBroadcastCard stream={stream} />}
            <PlaybackCard stream={stream} />
            <ViewershipCard of={{ streamId: stream.id }} noun="stream" />
            <AccessCard stream={stream} />
            <MultistreamCard stream={stream} live={stream.isActive || starting} />
            <ClipsCard stream={stream} liveSessionId={current?.id} />
            <BroadcastsCard sessions={sessions} items={list} />
          </>
        }
        side={
          <>
            <SettingsCard stream={stream} live={stream.isActive || starting} />
            <RenditionsCard stream={stream} live={stream.isActive || starting} />
            <StreamDetails stream={stream} />
            <DangerZone remove={remove} description="Its key stops working and its player link goes dark.">
              <strong className="font-semibold text-zinc-900">{stream.name}</strong> will be deleted. Encoders using its key will be refused and viewers will no
              longer be able to watch. This cannot be undone.
            </DangerZone>
          </>
        }
      />
    </>
  );
}

function RenameStream({ stream }: { stream: Stream }) {
  return <RenameButton noun="stream" name={stream.name} update={useUpdateStream(stream.id)} />;
}

/** A leaked key is replaced at once: whoever holds it (even mid-broadcast) is cut off. */
function RotateKey({ stream }: { stream: Stream }) {
  const [open, setOpen] = useState(false);
  const rotate = useRotateStreamKey(stream.id);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-zinc-50 px-3.5 py-2.5 ring-1 ring-zinc-200 ring-inset">
      <p className="text-xs text-zinc-600">Key leaked, or shared with someone who should no longer broadcast?</p>
      <Button size="sm" onClick={() => setOpen(true)}>
        <KeyIcon /> Rotate key
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        onConfirm={() => rotate.mutate(undefined, { onSuccess: () => setOpen(false) })}
        title="Rotate the stream key?"
        confirmLabel="Rotate key"
        action={rotate}
      >
        <p>
          <strong className="font-semibold text-zinc-900">{stream.name}</strong> gets a new stream key. Encoders using the current key are refused from now on:
          update the key in OBS or your encoder.
        </p>
        {stream.isActive && <p className="mt-2 font-medium text-red-700">This stream is live: the broadcast will be cut within a second or two.</p>}
        {!stream.isActive && <p className="mt-2">If a broadcast is live on the current key, it will be cut.</p>}
      </ConfirmDialog>
    </div>
  );
}

function ConnectCard({ stream }: { stream: Stream }) {
  const ingest = useIngestUrl();
  return (
    <Card>
      <CardHeader
        icon={<BroadcastIcon className="size-4" />}
        title="Go live"
        description="Point OBS or any RTMP encoder here. In OBS: Settings → Stream → Service “Custom…”."
      />
      <CardBody className="space-y-4">
        <LabeledValue label="RTMP ingest URL" hint={ingest === null ? undefined : "OBS calls this “Server”."}>
          {ingest === null ? <NoMediaNode /> : <CopyField value={ingest ?? ""} label="RTMP ingest URL" testId="ingest-url" />}
        </LabeledValue>
        {stream.streamKey && (
          <LabeledValue label="Stream key" hint="Anyone with this key can broadcast on your stream: keep it private.">
            <CopyField value={stream.streamKey} label="stream key" secret testId="stream-key" />
          </LabeledValue>
        )}
        {stream.streamKey && <RotateKey stream={stream} />}
      </CardBody>
    </Card>
  );
}

/** Without a healthy media node there is nowhere to publish: say so rather than show an empty URL. */
function NoMediaNode() {
  return (
    <div role="status" className="flex items-start gap-2.5 rounded-lg bg-amber-50 px-3.5 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
      <AlertIcon className="mt-0.5 size-4 shrink-0 text-amber-600" />
      <p>
        <strong className="font-semibold">No media node is available right now.</strong> Encoders cannot connect until one is running; the URL shows here as
        soon as one is.{" "}
        <Link href="/nodes" className="font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700">
          See media nodes
        </Link>
      </p>
    </div>
  );
}

function PlaybackCard({ stream }: { stream: Stream }) {
  if (!stream.playbackId) return null;
  return (
    <WatchAndShareCard
      playbackId={stream.playbackId}
      description="Send viewers the player link, or embed the player in your own site."
      action={
        <a
          href={`/play/${stream.playbackId}`}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1.5 text-sm font-medium text-indigo-600 hover:text-indigo-500"
        >
          Open player <ExternalLinkIcon />
        </a>
      }
    >
      <LabeledValue label="Playback ID">
        <CopyField value={stream.playbackId} label="playback ID" testId="playback-id" />
      </LabeledValue>
      <PlayerLink playbackId={stream.playbackId} />
    </WatchAndShareCard>
  );
}

function AccessCard({ stream }: { stream: Stream }) {
  const update = useUpdateStream(stream.id);
  return (
    <PlaybackPolicyCard
      policy={policyOf(stream)}
      noun="stream"
      save={{ ...update, mutate: (playbackPolicy, options) => update.mutate({ playbackPolicy }, options) }}
    />
  );
}

function SettingsCard({ stream, live }: { stream: Stream; live: boolean }) {
  const update = useUpdateStream(stream.id);
  // Suspending cuts a live broadcast, as rotating the key does: ask first, as that does.
  const [confirmSuspend, setConfirmSuspend] = useState(false);
  const suspend = () => update.mutate({ suspended: true }, { onSuccess: () => setConfirmSuspend(false) });
  return (
    <Card>
      <CardHeader title="Settings" />
      <CardBody className="space-y-5">
        <Switch
          label="Record"
          description="Save each broadcast for on-demand playback."
          checked={stream.record}
          onChange={(record) => update.mutate({ record })}
        />
        <ReconnectWindowSetting stream={stream} />
        <Switch
          label="Suspend"
          description="Refuse broadcasts with this key, for example if it leaked."
          checked={stream.suspended}
          onChange={(suspended) => (suspended && live ? setConfirmSuspend(true) : update.mutate({ suspended }))}
        />
        {!confirmSuspend && <FormErrors error={update.error} />}
      </CardBody>
      <ConfirmDialog
        open={confirmSuspend}
        onClose={() => setConfirmSuspend(false)}
        onConfirm={suspend}
        title="Suspend this live stream?"
        confirmLabel="Suspend and cut the broadcast"
        action={update}
      >
        <p>
          <strong className="font-semibold text-zinc-900">{stream.name}</strong> is live. Suspending it cuts the broadcast within a second or two, and encoders
          using its key are refused until you turn suspension off.
        </p>
      </ConfirmDialog>
    </Card>
  );
}

/**
 * How long a recorded broadcast waits for its encoder to come back before its recording is
 * finalized: saved on its own (a number typed is not a choice made until saved).
 */
function ReconnectWindowSetting({ stream }: { stream: Stream }) {
  const update = useUpdateStream(stream.id);
  const saved = stream.reconnectWindow ?? 0;
  const [value, setValue] = useState(String(saved));
  const [localError, setLocalError] = useState<Error | null>(null);
  const changed = value.trim() !== String(saved);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The range is the API's to say (its answer shows here).
    if (!/^\d{1,6}$/.test(value.trim())) {
      setLocalError(new Error("The reconnect window is a whole number of seconds."));
      return;
    }
    const seconds = Number(value.trim());
    setLocalError(null);
    update.mutate({ reconnectWindow: seconds }, { onSuccess: () => setValue(String(seconds)) });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <label htmlFor="reconnect-window" className="text-sm font-medium text-zinc-900">
        Reconnect window
      </label>
      <p id="reconnect-window-hint" className="text-sm text-zinc-500">
        If your encoder drops, reconnecting within this many seconds continues the same broadcast and recording. Then the recording is finalized (0: as soon as
        the encoder stops). A broadcast keeps the window it started with.
      </p>
      <div className="flex items-center gap-2">
        <div className="w-24">
          <Input
            id="reconnect-window"
            inputMode="numeric"
            aria-describedby="reconnect-window-hint"
            className="tabular-nums"
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
        <span className="text-sm text-zinc-500">seconds</span>
        <Button type="submit" size="sm" variant="secondary" className="ml-auto" disabled={!changed} pending={update.isPending}>
          Save
        </Button>
      </div>
      <FormErrors error={localError ?? update.error} />
    </form>
  );
}

function RenditionsCard({ stream, live }: { stream: Stream; live: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <Card>
      <CardHeader
        icon={<LayersIcon className="size-4" />}
        title="Renditions"
        description={live ? "Can change once the broadcast ends." : undefined}
        action={
          <Button size="sm" variant="ghost" disabled={live} onClick={() => setEditing(true)}>
            <PencilIcon /> Edit
          </Button>
        }
      />
      <ul className="divide-y divide-zinc-100 text-sm">
        <li className="flex items-center justify-between px-5 py-2.5">
          <span className="font-mono text-zinc-900">source</span>
          <span className="text-xs text-zinc-500">as sent by your encoder</span>
        </li>
        {stream.profiles.map((p) => (
          <li key={p.name} className="flex items-center justify-between gap-3 px-5 py-2.5">
            <span className="font-mono text-zinc-900">{p.name}</span>
            <span className="text-right text-xs text-zinc-500">
              {p.width}×{p.height} · {formatBitrate(p.bitrate)} · {p.fps} fps
            </span>
          </li>
        ))}
      </ul>
      <Modal
        open={editing}
        onClose={() => setEditing(false)}
        title="Edit renditions"
        description="The next broadcast uses them; a live broadcast keeps the ones it started with."
        wide
      >
        <EditRenditionsForm stream={stream} onClose={() => setEditing(false)} />
      </Modal>
    </Card>
  );
}

function EditRenditionsForm({ stream, onClose }: { stream: Stream; onClose: () => void }) {
  const update = useUpdateStream(stream.id);
  const [renditions, setRenditions] = useState(() => choiceOf(stream.profiles));
  const [localError, setLocalError] = useState<Error | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setLocalError(null);
    try {
      const profiles = profilesOf(renditions);
      update.mutate({ profiles }, { onSuccess: onClose });
    } catch (err) {
      setLocalError(err as Error);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <ModalBody>
        <FormErrors error={localError ?? update.error} />
        <RenditionsEditor value={renditions} onChange={setRenditions} />
      </ModalBody>
      <FormFooter submit="Save renditions" pending={update.isPending} onCancel={onClose} />
    </form>
  );
}

function StreamDetails({ stream }: { stream: Stream }) {
  return (
    <DetailsCard idLabel="Stream ID">
      <DetailFacts>
        <DetailFact term="Created">{formatDateTime(stream.createdAt)}</DetailFact>
        <DetailFact term="Last live">{stream.lastSeen ? formatDateTime(stream.lastSeen) : "Never"}</DetailFact>
        {stream.isActive ? (
          <DetailFact term="Watching now">
            <span data-testid="viewer-count">{stream.viewerCount ?? 0}</span>
          </DetailFact>
        ) : null}
      </DetailFacts>
    </DetailsCard>
  );
}

function BroadcastsCard({ sessions, items }: { sessions: Sessions; items: Session[] | undefined }) {
  return (
    <Card>
      <CardHeader
        title="Broadcasts"
        description="Each time your encoder connects, a session is recorded here."
        action={
          <Link href="/broadcasts" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            All broadcasts
          </Link>
        }
      />
      {sessions.isPending ? (
        <LoadingState compact />
      ) : sessions.isError ? (
        <CardBody>
          <FormErrors error={sessions.error} />
        </CardBody>
      ) : !items?.length ? (
        <CardBody>
          <EmptyState
            className="border-0 py-8"
            icon={<BroadcastIcon className="size-6" />}
            title="No broadcasts yet"
            description="Start streaming with the ingest URL and key above, and your broadcasts will show up here."
          />
        </CardBody>
      ) : (
        <>
          <ul aria-label="Broadcasts" className="divide-y divide-zinc-100 text-sm">
            {items.map((s) => (
              <BroadcastRow key={s.id} session={s} />
            ))}
          </ul>
          <LoadMore list={sessions} className="border-t border-zinc-100 py-3" />
        </>
      )}
    </Card>
  );
}
