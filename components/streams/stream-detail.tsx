"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { Badge, StreamStatus } from "@/components/ui/badge";
import { Button, LinkButton } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm";
import { CopyButton, CopyField } from "@/components/ui/copy";
import { ArrowLeftIcon, BroadcastIcon, ExternalLinkIcon, LayersIcon, PauseIcon, PlayIcon, TrashIcon } from "@/components/ui/icons";
import { Switch } from "@/components/ui/switch";
import { EmptyState, ErrorState, FormErrors, LoadingState } from "@/components/ui/states";
import { formatBitrate, formatDateTime, formatDuration, timeAgo } from "@/lib/client/format";
import { useDeleteStream, useStreamBroadcasts, useUpdateStream } from "@/lib/client/hooks";
import { useIngestUrl, useOrigin } from "@/lib/client/location";
import type { Session } from "@/lib/sessions/schema";
import type { Stream } from "@/lib/streams/schema";
import { IngestHealthCard } from "./ingest-health-card";
import { LivePreviewCard } from "./live-preview-card";
import { MultistreamCard } from "./multistream-card";

type Sessions = ReturnType<typeof useStreamBroadcasts>["sessions"];

export function StreamDetail({ id }: { id: string }) {
  const { stream, sessions } = useStreamBroadcasts(id);

  if (stream.isPending) return <LoadingState label="Loading stream…" />;
  if (stream.isError) {
    return (
      <>
        <BackLink />
        <ErrorState
          error={stream.error}
          onRetry={() => stream.refetch()}
          notFound={{
            title: "Stream not found",
            description: "It may have been deleted, or the link is wrong.",
            action: <LinkButton href="/streams">Back to streams</LinkButton>,
          }}
        />
      </>
    );
  }
  return <StreamPage stream={stream.data} sessions={sessions} />;
}

function BackLink() {
  return (
    <Link href="/streams" className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-zinc-500 hover:text-zinc-800">
      <ArrowLeftIcon /> Streams
    </Link>
  );
}

function StreamPage({ stream, sessions }: { stream: Stream; sessions: Sessions }) {
  // The encoder is connected (its session is live) before the first segments make the stream playable.
  const starting = !stream.isActive && !!sessions.data?.some((s) => s.isActive);
  return (
    <>
      <BackLink />
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="truncate text-2xl font-semibold tracking-tight text-zinc-900">{stream.name}</h1>
            <StreamStatus isActive={stream.isActive} starting={starting} suspended={stream.suspended} testId="stream-status" />
          </div>
          <p className="mt-1 text-sm text-zinc-500">
            Created {formatDateTime(stream.createdAt)}
            {stream.lastSeen ? ` · last live ${timeAgo(stream.lastSeen)}` : " · never live yet"}
          </p>
        </div>
      </div>

      {stream.suspended && (
        <div role="status" className="mb-6 flex items-start gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
          <PauseIcon className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <p>
            <strong className="font-semibold">This stream is suspended.</strong> Encoders using its key are refused until you
            turn suspension off below.
          </p>
        </div>
      )}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <LivePreviewCard stream={stream} starting={starting} />
          <ConnectCard stream={stream} />
          <PlaybackCard stream={stream} />
          <MultistreamCard stream={stream} />
          <SessionsCard sessions={sessions} />
        </div>
        <div className="min-w-0 space-y-6">
          <IngestHealthCard stream={stream} />
          <SettingsCard stream={stream} />
          <RenditionsCard stream={stream} />
          <DetailsCard stream={stream} />
          <DangerCard stream={stream} />
        </div>
      </div>
    </>
  );
}

function Row({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-zinc-800">{label}</p>
      {children}
      {hint && <p className="mt-1.5 text-xs text-zinc-500">{hint}</p>}
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
        <Row label="RTMP ingest URL" hint="OBS calls this “Server”.">
          <CopyField value={ingest} label="RTMP ingest URL" testId="ingest-url" />
        </Row>
        {stream.streamKey && (
          <Row label="Stream key" hint="Anyone with this key can broadcast on your stream: keep it private.">
            <CopyField value={stream.streamKey} label="stream key" secret testId="stream-key" />
          </Row>
        )}
      </CardBody>
    </Card>
  );
}

function PlaybackCard({ stream }: { stream: Stream }) {
  const origin = useOrigin();
  if (!stream.playbackId) return null;
  const playerUrl = `${origin}/play/${stream.playbackId}`;
  const embed = `<iframe src="${playerUrl}" width="640" height="360" style="border:0;aspect-ratio:16/9;width:100%;height:auto" allow="autoplay; fullscreen" allowfullscreen></iframe>`;
  return (
    <Card>
      <CardHeader
        icon={<PlayIcon className="size-4" />}
        title="Watch and share"
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
      />
      <CardBody className="space-y-4">
        <Row label="Playback ID">
          <CopyField value={stream.playbackId} label="playback ID" testId="playback-id" />
        </Row>
        <Row label="Player link">
          <CopyField value={playerUrl} label="player link" testId="player-url" />
        </Row>
        <div>
          <div className="mb-1.5 flex items-center justify-between">
            <p className="text-sm font-medium text-zinc-800">Embed code</p>
            <CopyButton value={embed} label="Copy embed code" variant="ghost" />
          </div>
          <pre
            data-testid="embed-code"
            className="overflow-x-auto rounded-lg bg-zinc-950 px-4 py-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-zinc-100"
          >
            {embed}
          </pre>
        </div>
      </CardBody>
    </Card>
  );
}

function SettingsCard({ stream }: { stream: Stream }) {
  const update = useUpdateStream(stream.id);
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
        <Switch
          label="Suspend"
          description="Refuse broadcasts with this key, for example if it leaked."
          checked={stream.suspended}
          onChange={(suspended) => update.mutate({ suspended })}
        />
        <FormErrors error={update.error} />
      </CardBody>
    </Card>
  );
}

function RenditionsCard({ stream }: { stream: Stream }) {
  return (
    <Card>
      <CardHeader icon={<LayersIcon className="size-4" />} title="Renditions" />
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
    </Card>
  );
}

function DetailsCard({ stream }: { stream: Stream }) {
  return (
    <Card>
      <CardHeader title="Details" />
      <CardBody className="space-y-4">
        <Row label="Stream ID">
          <CopyField value={stream.id} label="stream ID" />
        </Row>
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-xs text-zinc-500">Created</dt>
            <dd className="text-zinc-800">{formatDateTime(stream.createdAt)}</dd>
          </div>
          <div>
            <dt className="text-xs text-zinc-500">Last live</dt>
            <dd className="text-zinc-800">{stream.lastSeen ? formatDateTime(stream.lastSeen) : "Never"}</dd>
          </div>
        </dl>
      </CardBody>
    </Card>
  );
}

function SessionsCard({ sessions }: { sessions: Sessions }) {
  return (
    <Card>
      <CardHeader title="Recent broadcasts" description="Each time your encoder connects, a session is recorded here." />
      {sessions.isPending ? (
        <LoadingState compact />
      ) : sessions.isError ? (
        <CardBody>
          <FormErrors error={sessions.error} />
        </CardBody>
      ) : sessions.data.length === 0 ? (
        <CardBody>
          <EmptyState
            className="border-0 py-8"
            icon={<BroadcastIcon className="size-6" />}
            title="No broadcasts yet"
            description="Start streaming with the ingest URL and key above, and your broadcasts will show up here."
          />
        </CardBody>
      ) : (
        <ul aria-label="Broadcasts" className="divide-y divide-zinc-100 text-sm">
          {sessions.data.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 px-5 py-3">
              <span>
                <span className="font-medium text-zinc-900">{formatDateTime(s.createdAt)}</span>
                <span className="ml-2 text-zinc-500">{formatDuration(s.sourceSegmentsDuration)}</span>
              </span>
              <span className="flex items-center gap-2">
                <RecordingState session={s} />
                <SessionState session={s} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** From the session's own state: live once its first segments are counted, ended when it ended. */
function SessionState({ session }: { session: Session }) {
  if (!session.isActive) return <Badge>Ended</Badge>;
  return session.sourceSegments > 0 ? <Badge tone="green">Live</Badge> : <Badge tone="indigo">Starting</Badge>;
}

/** A recorded session records while live; afterwards its recording waits for a reconnect, is processed, then ready. */
function RecordingState({ session }: { session: Session }) {
  const status = session.recordingStatus;
  if (session.isActive) return session.record ? <Badge tone="amber">Recording</Badge> : null;
  if (!status || status === "none") return null;
  if (status === "ready") return <Badge tone="green">Recording ready</Badge>;
  if (status === "failed") return <Badge tone="red">Recording failed</Badge>;
  return <Badge tone="amber">Recording processing</Badge>;
}

function DangerCard({ stream }: { stream: Stream }) {
  const router = useRouter();
  const remove = useDeleteStream();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card className="ring-red-200">
      <CardBody className="space-y-3">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">Delete stream</h2>
          <p className="mt-0.5 text-sm text-zinc-500">Its key stops working and its player link goes dark.</p>
        </div>
        <Button variant="dangerGhost" className="-ml-2" onClick={() => setConfirming(true)}>
          <TrashIcon /> Delete stream
        </Button>
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          remove.reset();
          setConfirming(false);
        }}
        title="Delete this stream?"
        confirmLabel="Delete stream"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(stream.id, { onSuccess: () => router.push("/streams") })}
      >
        <strong className="font-semibold text-zinc-900">{stream.name}</strong> will be deleted. Encoders using its key will be
        refused and viewers will no longer be able to watch. This cannot be undone.
      </ConfirmDialog>
    </Card>
  );
}
