import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { Player } from "@/components/player/player";
import { embedRefusal } from "@/lib/access/embed";

export const metadata: Metadata = { title: "Watch" };
export const viewport: Viewport = { themeColor: "#000000", colorScheme: "dark" };

/**
 * The embeddable viewer page: nothing but the player, edge to edge on black. Public (no
 * session, no cookies) and framed by other sites through the dashboard's embed code, except
 * sites a playback policy's allowedOrigins leaves out.
 */
export default async function PlayPage({ params }: { params: Promise<{ playbackId: string }> }) {
  const { playbackId } = await params;
  const refusal = await embedRefusal(playbackId, await headers());
  return (
    <main className="fixed inset-0 bg-black">
      {refusal ? (
        <p role="alert" className="flex h-full items-center justify-center p-6 text-center text-sm text-white/80">
          {refusal}
        </p>
      ) : (
        <Player playbackId={playbackId} />
      )}
    </main>
  );
}
