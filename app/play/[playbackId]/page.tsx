import type { Metadata, Viewport } from "next";
import { Player } from "@/components/player/player";

export const metadata: Metadata = { title: "Watch" };
export const viewport: Viewport = { themeColor: "#000000", colorScheme: "dark" };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;

/**
 * The embeddable viewer page: nothing but the player, edge to edge on black. Public (no
 * session, no cookies) and framed by other sites through the dashboard's embed code. A private
 * stream or video plays with the viewer's credential in the link: `?jwt=` or `?accessKey=`.
 */
export default async function PlayPage({
  params,
  searchParams,
}: {
  params: Promise<{ playbackId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { playbackId } = await params;
  const query = await searchParams;
  return (
    <main className="fixed inset-0 bg-black">
      <Player playbackId={playbackId} credential={{ jwt: one(query.jwt), accessKey: one(query.accessKey) }} />
    </main>
  );
}
