import { expect, test, type Locator } from "@playwright/test";
import { newAccount, type Api } from "../test/support/client";
import { broadcastFor, publish, rtmpUrl, type Running } from "../test/support/media";
import { shoot, VIEWPORTS } from "./support/screens";

/**
 * A viewer arrives at the player page of a recorded stream whose show just ended, on a desktop
 * and a phone: the page says the broadcast has ended and offers the replay, which plays the whole
 * show; when the stream goes live again the page plays live.
 */

const SHOW_S = 4;

let api: Api;
let stream: { id: string; streamKey: string; playbackId: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  api = await newAccount();
  // A window long enough that the test sees the replay before the recording is processed.
  stream = (await api.post("stream", { name: `Evening show ${Date.now().toString(36)}`, record: true, reconnectWindow: 300 })).body;
  await broadcastFor(api, stream, SHOW_S);
});

const prop = <T>(video: Locator, read: (v: HTMLVideoElement) => T) => video.evaluate(read);

for (const [label, viewport] of VIEWPORTS) {
  test(`the player page of a stream that just ended offers the replay, which plays (${label})`, async ({ browser }) => {
    const page = await browser.newPage({ viewport });
    try {
      await page.goto(`/play/${stream.playbackId}`);
      const player = page.getByTestId("player");
      await expect(page.getByText("The broadcast has ended")).toBeVisible();
      await expect(page.getByText("This stream is offline")).toHaveCount(0);
      const watch = page.getByRole("button", { name: "Watch the replay" });
      await expect(watch).toBeVisible();
      await expect(watch).toBeInViewport({ ratio: 1 });
      await shoot(page, `replay-offered-${viewport.width}`);

      await watch.click();
      await expect(player).toHaveAttribute("data-status", "replay");
      const video = page.getByTestId("player-video");
      await expect.poll(() => prop(video, (v) => v.currentTime), { timeout: 30_000, message: "the replay plays" }).toBeGreaterThan(1);
      await expect(video).toHaveJSProperty("paused", false);
      const duration = await prop(video, (v) => v.duration);
      expect(Math.abs(duration - SHOW_S), `the replay lasts the ${SHOW_S} s show (${duration} s)`).toBeLessThanOrEqual(1.5);
      await expect(page.getByTestId("live-badge"), "a replay is no live broadcast").toHaveCount(0);
      await shoot(page, `replay-playing-${viewport.width}`);
    } finally {
      await page.close();
    }
  });
}

test("a player showing the replay goes back to live when the stream goes live again", async ({ page }) => {
  let encoder: Running | undefined;
  try {
    await page.goto(`/play/${stream.playbackId}`);
    await page.getByRole("button", { name: "Watch the replay" }).click();
    await expect(page.getByTestId("player")).toHaveAttribute("data-status", "replay");
    encoder = publish(rtmpUrl(stream.streamKey));
    await expect(page.getByTestId("live-badge")).toBeVisible({ timeout: 45_000 });
    await expect(page.getByTestId("player")).toHaveAttribute("data-status", "ready");
  } finally {
    await encoder?.stop();
  }
});
