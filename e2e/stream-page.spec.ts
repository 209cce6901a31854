import { expect, test } from "@playwright/test";
import { publish, rtmpUrl, type Running } from "../test/support/media";
import { fromDashboard } from "./accounts";

/**
 * A creator keeps the stream page open while a broadcast starts and ends: the header,
 * the broadcasts list (with its recording) and ingest health follow without a reload.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Header and sessions are asked for together: once one has moved, the other follows within a poll or two. */
const FOLLOWS_MS = 6_000;

test("the stream page follows a broadcast from start to end without a reload", async ({ page }) => {
  let publisher: Running | undefined;
  try {
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(`live-page-${unique}@example.com`);
    await page.getByLabel("Password").fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/streams$/);
    const res = await page.request.post("/api/stream", {
      headers: fromDashboard,
      data: { name: `Live page ${unique}`, record: true, profiles: [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }] },
    });
    expect(res.status()).toBe(201);
    const stream = (await res.json()) as { id: string; streamKey: string };

    await page.goto(`/streams/${stream.id}`);
    const status = page.getByTestId("stream-status");
    const broadcasts = page.getByRole("list", { name: "Broadcasts" });
    await expect(status).toHaveText("Idle");
    await expect(page.getByText("No broadcasts yet")).toBeVisible();
    let reloads = 0;
    page.on("load", () => reloads++);

    publisher = publish(rtmpUrl(stream.streamKey));
    await expect(status, "the header goes live").toHaveText("Live", { timeout: 60_000 });
    const session = broadcasts.getByRole("listitem").first();
    await expect(session, "the session shows as live").toContainText("Live", { timeout: FOLLOWS_MS });
    await expect(session).toContainText("Recording");
    await expect(page.getByText("No broadcasts yet")).toHaveCount(0);
    await expect(page.getByTestId("health-bitrate"), "ingest health arrives").toHaveText(/\d+\s*kbps/, { timeout: 60_000 });

    await publisher.stop();
    await expect(status, "the header goes idle").toHaveText("Idle", { timeout: 30_000 });
    await expect(session, "the session shows as ended").toContainText("Ended", { timeout: FOLLOWS_MS });
    await expect(session).not.toContainText("Live");
    await expect(page.getByTestId("health-bitrate")).toHaveText("—");
    // The suite's reconnect window is short: the recording becomes an asset while we watch.
    await expect(session, "the recording follows").toContainText("Recording ready", { timeout: 90_000 });
    await expect(broadcasts.getByRole("listitem")).toHaveCount(1);
    expect(reloads, "no reload").toBe(0);
  } finally {
    await publisher?.stop();
  }
});
