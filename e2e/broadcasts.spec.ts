import { expect, test, type Page } from "@playwright/test";
import { publish, rtmpUrl, type Running } from "../test/support/media";
import { fromDashboard, signUpByApi } from "./accounts";
import { SHOTS, shoot } from "./support/screens";

/**
 * A creator broadcasts with a keyframe every 3 s, watches the health graph tell them so,
 * then finds the broadcast and its recording: from the stream page, the account's
 * broadcasts, the recording's asset and back. At 1440 px and 390 px.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const DESKTOP = { width: 1440, height: 1000 };
const PHONE = { width: 390, height: 844 };

const shot = (page: Page, name: string) => shoot(page, name, { fullPage: true });

/** A page at the phone's width only to be looked at (nothing is checked there): only when screenshots are taken. */
async function shotAtPhoneWidth(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize(PHONE);
  await shot(page, name);
  await page.setViewportSize(DESKTOP);
}

test("broadcasts list their recordings, and ingest health is a graph that names what to fix", async ({ page }) => {
  test.setTimeout(240_000);
  let publisher: Running | undefined;
  try {
    await page.setViewportSize(DESKTOP);
    await signUpByApi(page, { email: `broadcasts-${unique}@example.com` });
    const name = `Studio ${unique}`;
    const res = await page.request.post("/api/stream", {
      headers: fromDashboard,
      data: { name, record: true, profiles: [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }] },
    });
    expect(res.status()).toBe(201);
    const stream = (await res.json()) as { id: string; streamKey: string };

    await page.goto(`/streams/${stream.id}`);
    publisher = publish(rtmpUrl(stream.streamKey), { keyframeIntervalS: 3 });
    await expect(page.getByTestId("stream-status")).toHaveText("Live", { timeout: 60_000 });

    await test.step("live: the health graph fills and names the keyframe interval", async () => {
      const history = page.getByTestId("health-history");
      await expect(history).toBeVisible({ timeout: 30_000 });
      for (const reading of ["bitrate", "fps", "keyframeInterval"]) await expect(page.getByTestId(`health-graph-${reading}`)).toBeVisible();
      await expect(page.getByTestId("health-graph-keyframeInterval")).toHaveAttribute("data-warn", "true", { timeout: 60_000 });
      await expect(page.getByTestId("health-graph-fps")).not.toHaveAttribute("data-warn");
      await expect(page.getByRole("list", { name: "What to fix" })).toContainText("keyframe interval to 2 s");
      // the line is drawn (a path with at least two points)
      await expect(page.getByTestId("health-graph-bitrate").locator("path")).toHaveAttribute("d", /^M[\d.,]+L/, { timeout: 60_000 });
      await shot(page, "1-stream-live-1440");
    });

    await test.step("at 390 px, ingest health sits above the broadcasts", async () => {
      await page.setViewportSize(PHONE);
      const health = page.getByRole("heading", { name: "Ingest health" });
      const broadcasts = page.getByRole("list", { name: "Broadcasts" });
      await expect(broadcasts.getByRole("listitem")).toHaveCount(1);
      const [h, b] = [await health.boundingBox(), await broadcasts.boundingBox()];
      expect(h!.y).toBeLessThan(b!.y);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await shot(page, "2-stream-live-390");
      await page.setViewportSize(DESKTOP);
    });

    await publisher.stop();
    const row = page.getByRole("list", { name: "Broadcasts" }).getByRole("listitem").first();
    await test.step("ended: the recording is linked from its broadcast", async () => {
      await expect(row).toContainText("Ended", { timeout: 30_000 });
      await expect(row).toContainText("Recording ready", { timeout: 120_000 });
      await expect(row.getByRole("link", { name: "Play" })).toHaveAttribute("href", /^\/play\/[\w-]+/);
      await expect(row.getByRole("link", { name: "MP4" })).toHaveAttribute("href", /\/recordings\/[\w-]+\/video\.mp4$/);
      await expect(row.getByRole("link", { name: "Asset" })).toHaveAttribute("href", /^\/assets\/[\w-]+/);
      await expect(row).toContainText(/Source \d+ segments/);
      // the last broadcast's graph stays on the stream page
      await expect(page.getByTestId("health-history")).toBeVisible();
      await shot(page, "3-stream-ended-1440");
    });

    await test.step("the recording's asset is named after the stream and date, and leads back", async () => {
      await row.getByRole("link", { name: /Recording ready/ }).click();
      await expect(page).toHaveURL(/\/assets\/[\w-]+/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^${name} — \\d{1,2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2} UTC$`));
      await expect(page.getByRole("link", { name: "View stream" })).toHaveAttribute("href", `/streams/${stream.id}`);
      await shot(page, "4-recording-asset-1440");
      await page.getByRole("link", { name: "View broadcast" }).click();
      await expect(page).toHaveURL(/\/broadcasts\/[\w-]+/);
      await expect(page.getByTestId("health-graph-keyframeInterval")).toHaveAttribute("data-warn", "true");
      await expect(page.getByRole("link", { name: "Play" })).toBeVisible();
      await shot(page, "5-broadcast-1440");
      await shotAtPhoneWidth(page, "6-broadcast-390");
    });

    await test.step("the account's broadcasts list it with its stream and recording", async () => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Broadcasts" }).click();
      await expect(page).toHaveURL(/\/broadcasts$/);
      const listed = page.getByRole("list", { name: "Broadcasts" }).getByRole("listitem").first();
      await expect(listed.getByRole("link", { name })).toHaveAttribute("href", `/streams/${stream.id}`);
      await expect(listed.getByRole("link", { name: "Play" })).toBeVisible();
      await shot(page, "7-broadcasts-1440");
      await shotAtPhoneWidth(page, "8-broadcasts-390");
    });
  } finally {
    await publisher?.stop();
  }
});
