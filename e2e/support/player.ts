import { expect, type Locator } from "@playwright/test";

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
      // Marks the element pressed, so that a failure can tell a player replaced since from one stalled.
      v.dataset.pressed = "";
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

/**
 * Waits until the video is past `beyond` seconds, as a viewer would see it play. If it does not
 * get there, the failure says what the element was doing: whether it is still the one pressed
 * (a page that re-rendered the player throws the play away), paused, what it had loaded, its error.
 */
export async function expectPlays(video: Locator, { beyond = 1, timeout = 30_000, message = "the video plays" } = {}): Promise<void> {
  try {
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout, message }).toBeGreaterThan(beyond);
  } catch (err) {
    const state = await video
      .evaluate(
        (v: HTMLVideoElement) => {
          const buffered = Array.from({ length: v.buffered.length }, (_, i) => `${v.buffered.start(i).toFixed(1)}-${v.buffered.end(i).toFixed(1)}`);
          return JSON.stringify({
            pressed: "pressed" in v.dataset,
            paused: v.paused,
            ended: v.ended,
            currentTime: v.currentTime,
            readyState: v.readyState,
            networkState: v.networkState,
            buffered,
            error: v.error && `${v.error.code} ${v.error.message}`,
            src: v.currentSrc.slice(0, 80),
          });
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch((e: Error) => `unreadable (${e.message.split("\n")[0]})`);
    throw new Error(`${(err as Error).message}\nThe video element then: ${state}`, { cause: err });
  }
}
