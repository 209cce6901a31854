import type { Metadata, Viewport } from "next";
import { Player } from "@/components/player/player";

export const metadata: Metadata = { title: "Watch" };
export const viewport: Viewport = { themeColor: "#000000", colorScheme: "dark" };

/**
 * The embeddable viewer page: nothing but the player, edge to edge on black. Public (no
 * session, no cookies) and framed by other sites through the dashboard's embed code.
 */
export default async function PlayPage({ params }: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await params;
  return (
    <main className="fixed inset-0 bg-black">
      <Player playbackId={playbackId} />
    </main>
  );
}
