import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeVideo } from "./support/video";
import { expectPlays, play } from "./support/player";

/**
 * A creator uploads a video in the dashboard: the upload row's progress bar moves
 * to 100 %, the asset is processed to ready, and its page plays it.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("an upload in the dashboard shows its progress, becomes ready and plays", async ({ page, context }) => {
  const file = makeVideo(`holiday-${unique}.mp4`, "640x360");
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("E2E Uploader");
  await page.getByLabel("Email").fill(`uploader-${unique}@example.com`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/streams$/);

  // A slow link (about 1 MB/s up), so the progress bar has something to show.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1_000_000 });

  await page.goto("/assets");
  await page.getByTestId("asset-file-input").setInputFiles(file);
  const row = page.getByTestId("upload-row").filter({ hasText: path.basename(file) });
  const bar = row.getByRole("progressbar");
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { message: "progress shows part of the file sent" }).toBeGreaterThan(0);
  const midway = Number(await bar.getAttribute("aria-valuenow"));
  expect(midway, "seen before the end").toBeLessThan(100);
  await expect(row).toHaveAttribute("data-state", "uploaded", { timeout: 60_000 });
  await expect(bar).toHaveAttribute("aria-valuenow", "100");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/assets\/[\w-]+$/);
  await expect(page.getByTestId("asset-status")).toContainText("ready", { timeout: 60_000 });
  const video = page.getByTestId("player-video");
  await play(video);
  await expectPlays(video, { message: "the asset plays" });
});
