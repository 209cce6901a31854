import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { PlaybackRefused, Player } from "@/components/player/player";
import { embedRefusal } from "@/lib/access/embed";

export const metadata: Metadata = { title: "Watch" };
export const viewport: Viewport = { themeColor: "#000000", colorScheme: "dark" };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;

/**
 * The embeddable viewer page: nothing but the player, edge to edge on black. Public (no
 * session, no cookies) and framed by other sites through the dashboard's embed code, except
 * sites a playback policy's allowedOrigins leaves out. A private stream or video plays with the
 * viewer's credential in the link: `?jwt=` or `?accessKey=`.
 */
export default async function PlayPage({
  params,
  searchParams,
}: {
  params: Promise<{ playbackId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { playbackId } = await params;
  const [query, refusal] = await Promise.all([searchParams, embedRefusal(playbackId, await headers())]);
  return (
    <main className="fixed inset-0 bg-black">
      {refusal ? (
        <PlaybackRefused reason={refusal} />
      ) : (
        <Player playbackId={playbackId} credential={{ jwt: one(query.jwt), accessKey: one(query.accessKey) }} />
      )}
    </main>
  );
}
