import path from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import { BASE, newAccount } from "../test/support/client";
import { makeMedia, putFile, settled, tmpDir } from "../test/support/vod";

/**
 * A viewer turns captions on in the player: the CC menu lists the asset's tracks, and the
 * chosen one's cues show at their times (our segments start at 1.4 s; a cue must not be early).
 */

const VTT = "WEBVTT\n\n00:00:00.500 --> 00:00:03.000\nFirst cue\n\n00:00:03.000 --> 00:00:07.500\nSecond cue\n";

/** The modes of the video's caption tracks: the player draws cues itself, so the chosen one is "hidden". */
const modes = (video: Locator) => video.evaluate((v: HTMLVideoElement) => [...v.textTracks].map((t) => `${t.label}:${t.mode}`));

test("the CC menu shows an asset's captions, each cue at its time", async ({ page }) => {
  const api = await newAccount();
  const file = await makeMedia(tmpDir(), "mp4", { seconds: 8 });
  const requested = await api.post("asset/request-upload", { name: path.basename(file) });
  expect((await putFile(requested.body.url, file)).status).toBe(200);
  const asset = await settled(api, requested.body.asset.id);
  expect(asset.status.phase).toBe("ready");
  const added = await fetch(`${BASE}/api/asset/${asset.id}/text-tracks?language=en`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}`, "content-type": "text/vtt" },
    body: VTT,
  });
  expect(added.status).toBe(201);

  await page.goto(`/play/${asset.playbackId}`);
  const video = page.getByTestId("player-video");
  await video.evaluate((v: HTMLVideoElement) => ((v.muted = true), v.pause()));
  await page.getByTestId("player").hover();
  const cc = page.getByRole("button", { name: /^Captions/ });
  await expect(cc).toHaveAccessibleName("Captions: Off");
  await cc.click();
  const menu = page.getByRole("menu", { name: "Captions" });
  await expect(menu.getByRole("menuitemradio")).toHaveText(["Off", "English"]);
  await menu.getByRole("menuitemradio", { name: "English" }).click();
  await expect(cc).toHaveAccessibleName("Captions: English");

  expect(await modes(video)).toEqual(["English:hidden"]);

  // At 2 s the first cue (0.5-3 s) shows; 1.4 s early it would already be the second.
  const shown = page.getByTestId("player-captions");
  await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 2));
  await expect(shown, "the first cue at 2 s").toHaveText("First cue", { timeout: 30_000 });
  await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 5));
  await expect(shown, "the second cue at 5 s").toHaveText("Second cue");
  await page.screenshot({ path: "test-results/captions.png" });
  // Playing on past the last cue's end clears it.
  await video.evaluate((v: HTMLVideoElement) => ((v.currentTime = 7.6), v.play()));
  await expect(shown).toHaveText("");

  // Off hides them again.
  await page.getByTestId("player").hover();
  await cc.click();
  await menu.getByRole("menuitemradio", { name: "Off" }).click();
  await expect(cc).toHaveAccessibleName("Captions: Off");
  expect(await modes(video)).toEqual(["English:disabled"]);
});
