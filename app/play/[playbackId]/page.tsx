import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PlaybackRefused, Player } from "@/components/player/player";
import { embedAdmission } from "@/lib/access/embed";
import { contentForPlayback, publicName } from "@/lib/playback/service";

type Params = { params: Promise<{ playbackId: string }> };

/** Asked by the metadata and the page alike: once per request. */
const nameOf = cache(publicName);

/** The tab (and a shared link's preview) says what plays; a gated stream or video keeps its name to itself. */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const name = await nameOf((await params).playbackId);
  return { title: name ? { absolute: name } : "Watch" };
}
export const viewport: Viewport = { themeColor: "#000000", colorScheme: "dark" };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;
/** `?autoplay=0` or `?muted=false` turn a default off (as Livepeer's and Cloudflare's player pages take them); anything else keeps it. */
const switchedOff = (value: string | string[] | undefined) => /^(0|false)$/i.test(one(value) ?? "");

/**
 * The embeddable viewer page: nothing but the player, edge to edge on black. Public (no
 * session, no cookies) and framed by other sites through the dashboard's embed code; under a
 * playback policy's allowedOrigins, only by those sites (lib/access/embed.ts). A private stream or video plays with the
 * viewer's credential in the link: `?jwt=` or `?accessKey=`. It plays at once, muted (browsers
 * refuse to start sound unasked): `?autoplay=0` waits for the viewer, `?muted=0` starts with sound. A live stream plays over
 * WebRTC where it can, HLS otherwise; `?lowLatency=false` plays HLS only. The player's keyboard shortcuts
 * work on the whole page, nothing else being there to type into.
 */
export default async function PlayPage({
  params,
  searchParams,
}: Params & {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { playbackId } = await params;
  // Unknown, or taken down: nothing to play here, for anyone.
  if (!/^[\w-]{1,64}$/.test(playbackId) || !(await contentForPlayback(playbackId))) notFound();
  const [query, embed, name] = await Promise.all([searchParams, embedAdmission(playbackId, await headers()), nameOf(playbackId)]);
  return (
    <main className="fixed inset-0 bg-black">
      {embed.refusal ? (
        <PlaybackRefused reason={embed.refusal} kind={embed.kind} />
      ) : (
        <Player
          playbackId={playbackId}
          credential={{ jwt: one(query.jwt), accessKey: one(query.accessKey), embedGrant: embed.grant }}
          title={name}
          autoPlay={!switchedOff(query.autoplay)}
          muted={!switchedOff(query.muted)}
          pageShortcuts
          lowLatency={!switchedOff(query.lowLatency)}
        />
      )}
    </main>
  );
}
