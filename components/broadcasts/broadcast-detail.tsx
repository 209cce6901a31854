"use client";

import Link from "next/link";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DetailColumns, DetailFact, DetailFacts, DetailHeader, DetailPage, DetailsCard } from "@/components/ui/detail-page";
import { BroadcastIcon, RecordIcon } from "@/components/ui/icons";
import { formatDateTime, formatDuration } from "@/lib/client/format";
import { useSession } from "@/lib/client/hooks";
import type { Session } from "@/lib/sessions/schema";
import { broadcastDuration, ingestStats, RecordingLinks, RecordingState, SessionState, streamNameOf } from "./broadcast-row";
import { HealthHistory } from "./health-graph";

/** One broadcast: its ingest health over its whole length, its recording, and the stream it was on. */
export function BroadcastDetail({ id }: { id: string }) {
  const session = useSession(id);
  return (
    <DetailPage query={session} noun="broadcast" list={{ href: "/broadcasts", label: "Broadcasts" }}>
      {(session) => <BroadcastPage session={session} />}
    </DetailPage>
  );
}

function BroadcastPage({ session }: { session: Session }) {
  const streamName = streamNameOf(session);
  return (
    <>
      <DetailHeader
        title={`${streamName} — ${formatDateTime(session.createdAt)}`}
        status={<SessionState session={session} />}
        description={
          <>
            {session.isActive ? "Live for " : "Lasted "}
            {formatDuration(broadcastDuration(session))} on stream{" "}
            <Link href={`/streams/${session.parentId}`} className="font-medium text-indigo-600 hover:text-indigo-500">
              {streamName}
            </Link>
            {streamName !== session.name && <> (named “{session.name}” then)</>}
          </>
        }
      />
      <DetailColumns
        main={
          <Card>
            <CardHeader
              icon={<BroadcastIcon className="size-4" />}
              title="Ingest health"
              description={session.isActive ? "Your encoder’s feed over this broadcast, as it arrives." : "Your encoder’s feed over this broadcast."}
            />
            <CardBody>
              <HealthHistory sessionId={session.id} live={session.isActive} />
            </CardBody>
          </Card>
        }
        side={
          <>
            <Card>
              <CardHeader icon={<RecordIcon className="size-4" />} title="Recording" />
              <CardBody className="space-y-3 text-sm">
                {session.record ? (
                  <>
                    <div className="flex flex-wrap items-center gap-2">
                      <RecordingState session={session} />
                      <RecordingLinks session={session} />
                    </div>
                    {session.recordingStatus === "waiting" && <FinalizedWhen session={session} />}
                  </>
                ) : (
                  <p className="text-zinc-500">This broadcast was not recorded: turn on Record on its stream for the next one.</p>
                )}
              </CardBody>
            </Card>
            <DetailsCard idLabel="Session ID">
              <DetailFacts>
                <DetailFact term="Started">{formatDateTime(session.createdAt)}</DetailFact>
                <DetailFact term="Ended">{session.isActive ? "Live now" : session.endedAt ? formatDateTime(session.endedAt) : "—"}</DetailFact>
                <DetailFact term="Received" wide>
                  {ingestStats(session)}
                </DetailFact>
                <DetailFact term="Renditions" wide>
                  {session.profiles.length ? ["source", ...session.profiles.map((p) => p.name)].join(", ") : "source only"}
                </DetailFact>
              </DetailFacts>
            </DetailsCard>
          </>
        }
      />
    </>
  );
}

/** When a recording that waits for a reconnect becomes a video: its session's reconnect window after its end. */
function FinalizedWhen({ session }: { session: Session }) {
  const window = session.reconnectWindow ?? 0;
  return (
    <p className="text-xs text-zinc-500">
      {window > 0
        ? `An encoder that reconnects within ${formatDuration(window)} of the end continues this broadcast; then the recording is processed into a video.`
        : "The recording is being processed into a video."}{" "}
      It can be watched already.
    </p>
  );
}
