import type { Locator } from "@playwright/test";

/**
 * Presses play on the player's video (muted, as autoplay rules want), optionally from a position.
 * A video on demand whose ladder is still transcoding loads its master again when a rendition
 * joins; a play() pending at that moment is "interrupted by a new load request" (AbortError) and
 * the player plays on by itself once the new master is parsed. That rejection is not a failure:
 * callers then check that the video plays, as a viewer would. Any other refusal is.
 */
export async function play(video: Locator, { from, muted = true }: { from?: number; muted?: boolean } = {}): Promise<void> {
  const error = await video.evaluate(
    async (v: HTMLVideoElement, { from, muted }) => {
      v.muted = muted;
      if (from !== undefined) v.currentTime = from;
      try {
        await v.play();
        return null;
      } catch (e) {
        return e instanceof DOMException && e.name === "AbortError" ? null : String(e);
      }
    },
    { from, muted },
  );
  if (error) throw new Error(`the video refused to play: ${error}`);
}
