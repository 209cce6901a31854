"use client";

import { Player } from "@/components/player/player";
import { Card, CardHeader } from "@/components/ui/card";
import { BroadcastIcon, VideoIcon } from "@/components/ui/icons";
import { transcodingBehind } from "@/lib/sessions/health-readings";
import type { Stream } from "@/lib/streams/schema";

/** The creator watches what viewers get (the same player, muted), or sees that nothing arrives. */
export function LivePreviewCard({ stream, starting }: { stream: Stream; starting?: boolean }) {
  const live = stream.isActive && !!stream.playbackId;
  const behind = live && stream.health && transcodingBehind(stream.health);
  return (
    <Card className="overflow-hidden">
      <CardHeader
        icon={<VideoIcon className="size-4" />}
        title="Live preview"
        description={
          !live
            ? "Your broadcast shows up here once it reaches Castline."
            : behind
              ? "What your viewers see. The media node cannot keep up in real time: see Ingest health."
              : "What your viewers see, a few seconds behind your encoder."
        }
      />
      <div className="relative aspect-video bg-zinc-950 scheme-light" data-testid="live-preview">
        {live ? (
          <Player playbackId={stream.playbackId!} muted credential={{ session: true }} />
        ) : (
          <div className="absolute inset-0 flex flex-col items-center justify-center bg-[radial-gradient(ellipse_at_center,var(--color-zinc-800),var(--color-zinc-950)_70%)] px-6 text-center">
            <div className="flex size-12 items-center justify-center rounded-full bg-white/5 text-zinc-400 ring-1 ring-white/10">
              <BroadcastIcon className="size-6" />
            </div>
            <p className="mt-3 text-base font-semibold text-white">{starting ? "Starting…" : "Offline"}</p>
            <p className="mt-1 max-w-sm text-sm text-zinc-400">
              {starting
                ? "Your encoder is connected; the preview starts with the first segments."
                : stream.suspended
                  ? "This stream is suspended: broadcasts with its key are refused."
                  : "Start streaming with the ingest URL and stream key below to see a preview."}
            </p>
          </div>
        )}
      </div>
    </Card>
  );
}
