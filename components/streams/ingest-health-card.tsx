"use client";

import Link from "next/link";
import { useEffect, useState, type ReactNode } from "react";
import { HealthHistory } from "@/components/broadcasts/health-graph";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { AlertIcon } from "@/components/ui/icons";
import { formatDateTime, timeAgo } from "@/lib/client/format";
import { keyframesTooSlow, MAX_KEYFRAME_INTERVAL_S, namesInWords, transcodingBehind } from "@/lib/sessions/health-readings";
import type { Session } from "@/lib/sessions/schema";
import type { Stream } from "@/lib/streams/schema";

/** The media node reports every few seconds: older measurements no longer describe the feed. */
const HEALTH_STALE_MS = 15_000;

const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });

/** Re-renders every `ms` while `on`, for "seconds ago" texts between polls. */
function useNow(on: boolean, ms = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [on, ms]);
  return now;
}

/**
 * What the media node measures of the encoder's feed while the stream is live, and its history
 * over `session`: the live broadcast, or else the last one.
 */
export function IngestHealthCard({ stream, session }: { stream: Stream; session?: Session }) {
  const now = useNow(stream.isActive);
  const health = stream.isActive ? stream.health : undefined;
  const age = health ? Math.max(0, now - health.updatedAt) : undefined;
  const stale = age !== undefined && age > HEALTH_STALE_MS;
  const keyframe = health?.keyframeIntervalS;
  const slowKeyframes = keyframe !== undefined && keyframesTooSlow(keyframe);
  const behind = !!health && !stale && transcodingBehind(health);

  return (
    <Card>
      <CardHeader
        title="Ingest health"
        description={stream.isActive ? "Your encoder’s feed as it arrives." : "Measured while you are live."}
        action={stream.isActive && <Pulse stale={stale || !health} />}
      />
      <CardBody className="space-y-4">
        <dl className="grid grid-cols-2 gap-3">
          {/* The one current bitrate on the page: the media node's, over the media's last 5 s (media-node/bitrate-meter.ts); the history below averages the same readings. */}
          <Stat
            label="Bitrate, last 5 s"
            testId="health-bitrate"
            unit="kbps"
            dim={stale}
            title="Video and audio your encoder sent, averaged over the last 5 seconds of its media"
          >
            {health?.bitrateKbps !== undefined ? whole.format(health.bitrateKbps) : undefined}
          </Stat>
          <Stat label="Frame rate" testId="health-fps" unit="fps" dim={stale}>
            {health?.fps !== undefined ? oneDecimal.format(health.fps) : undefined}
          </Stat>
          <Stat label="Keyframe interval" testId="health-keyframe" unit="s" dim={stale} warn={slowKeyframes}>
            {keyframe !== undefined ? oneDecimal.format(keyframe) : undefined}
          </Stat>
          <Stat label="Last seen" testId="health-last-seen" title={stream.lastSeen ? formatDateTime(stream.lastSeen) : undefined}>
            {stream.lastSeen ? timeAgo(stream.lastSeen, now) : "Never"}
          </Stat>
        </dl>
        {/* With a history below, its list of what to fix says it once. */}
        {slowKeyframes && !session && (
          <p className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset">
            <AlertIcon className="mt-px size-4 shrink-0 text-amber-600" />
            <span>
              Keyframes every {oneDecimal.format(keyframe)} s make playback start slowly and renditions lag. Set your encoder’s keyframe interval to{" "}
              {MAX_KEYFRAME_INTERVAL_S} s (OBS: Output → Keyframe Interval).
            </span>
          </p>
        )}
        {behind && <TranscodingBehind lagS={health.lagS} dropped={health.droppedRenditions ?? []} renditions={stream.profiles.length} />}
        {stream.isActive && (
          <p className="text-xs text-zinc-500" aria-live="polite">
            {!health ? "Waiting for the first measurements…" : stale ? `No measurements for ${Math.round(age! / 1000)} s` : "Updated every few seconds"}
          </p>
        )}
      </CardBody>
      {session && (
        <CardBody className="space-y-3 border-t border-zinc-100">
          <div className="flex items-baseline justify-between gap-3">
            <h3 className="text-sm font-medium text-zinc-800">
              {session.isActive ? "Over this broadcast" : `Last broadcast · ${formatDateTime(session.createdAt)}`}
            </h3>
            <Link href={`/broadcasts/${session.id}`} className="text-xs font-medium text-indigo-600 hover:text-indigo-500">
              Details
            </Link>
          </div>
          <HealthHistory sessionId={session.id} live={session.isActive} />
        </CardBody>
      )}
    </Card>
  );
}

/** The media node could not keep up: what it dropped to stay live, or how far the stream trails. */
function TranscodingBehind({ lagS, dropped, renditions }: { lagS?: number; dropped: string[]; renditions: number }) {
  return (
    <p
      data-testid="health-transcoding"
      role="status"
      className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset"
    >
      <AlertIcon className="mt-px size-4 shrink-0 text-amber-600" />
      <span>
        {dropped.length
          ? `Transcoding fell behind real time: ${namesInWords(dropped)} dropped to keep the stream live. Viewers get the source${renditions > dropped.length ? " and the other renditions" : ""}; the dropped ones come back when the media node has room.`
          : `The live stream trails your encoder by ${oneDecimal.format(lagS ?? 0)} s: the media node cannot keep up in real time.`}
      </span>
    </p>
  );
}

function Stat({
  label,
  unit,
  testId,
  title,
  dim,
  warn,
  children,
}: {
  label: string;
  unit?: string;
  testId: string;
  title?: string;
  dim?: boolean;
  warn?: boolean;
  children: ReactNode;
}) {
  const known = children !== undefined && children !== null;
  return (
    <div className={cx("rounded-lg px-3 py-2.5 ring-1 ring-inset", warn ? "bg-amber-50 ring-amber-200" : "bg-zinc-50 ring-zinc-200")}>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd data-testid={testId} title={title} className={cx("mt-0.5 truncate tabular-nums", dim && "opacity-50")}>
        {known ? (
          <>
            <span className={cx("text-lg font-semibold", warn ? "text-amber-800" : "text-zinc-900")}>{children}</span>
            {unit && <span className="ml-1 text-xs text-zinc-500">{unit}</span>}
          </>
        ) : (
          <span className="text-lg font-semibold text-zinc-400">—</span>
        )}
      </dd>
    </div>
  );
}

/** A beating dot while measurements arrive; grey when they stop. */
function Pulse({ stale }: { stale: boolean }) {
  return (
    <span className={cx("inline-flex items-center gap-1.5 text-xs font-medium", stale ? "text-zinc-500" : "text-emerald-700")}>
      <span className="relative flex size-2">
        {!stale && <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75" />}
        <span className={cx("relative inline-flex size-2 rounded-full", stale ? "bg-zinc-400" : "bg-emerald-500")} />
      </span>
      {stale ? "No data" : "Receiving"}
    </span>
  );
}
