import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { fromDashboard } from "./accounts";
import { makeVideo } from "./support/video";
import { expectPlays, play } from "./support/player";

/**
 * A 720p upload gets its ABR ladder: the asset page lists the renditions with their
 * MP4s, the player's quality menu offers each of them by height, and hovering the seek
 * bar shows a thumbnail of that moment.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const shots = process.env.SCREENSHOT_DIR;

/** Screenshots for a person to look at, when SCREENSHOT_DIR is set. */
async function shoot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

interface Rendition {
  name: string;
  phase: string;
  mp4Url?: string;
}

test("renditions show on the asset page and in the player's quality menu, and the seek bar previews thumbnails", async ({ page }) => {
  test.setTimeout(300_000);
  const file = makeVideo(`ladder-${unique}.mp4`, "1280x720");
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("E2E Ladder");
  await page.getByLabel("Email").fill(`ladder-${unique}@example.com`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/streams$/);

  // Through the API with the dashboard's session: the upload UI has its own test.
  const requested = await page.request.post("/api/asset/request-upload", { headers: fromDashboard, data: { name: `Ladder ${unique}`, staticMp4: true } });
  expect(requested.status(), await requested.text()).toBe(200);
  const { url, asset } = (await requested.json()) as { url: string; asset: { id: string; playbackId: string } };
  const put = await page.request.put(url, { data: fs.readFileSync(file), headers: { "content-type": "video/mp4" } });
  expect(put.status()).toBe(200);

  await page.goto(`/assets/${asset.id}`);
  await expect(page.getByTestId("asset-status")).toContainText("ready", { timeout: 120_000 });
  const card = page.getByRole("list", { name: "Renditions" });
  await expect(card.getByTestId("rendition").first()).toBeVisible({ timeout: 60_000 });
  await shoot(page, "asset-transcoding-1440");

  let renditions: Rendition[] = [];
  await expect
    .poll(
      async () => {
        renditions = ((await (await page.request.get(`/api/asset/${asset.id}`)).json()) as { renditions?: Rendition[] }).renditions ?? [];
        // Each MP4 is made just after its rendition is ready.
        return renditions.length > 0 && renditions.every((r) => r.phase !== "transcoding" && (r.phase === "failed" || r.mp4Url));
      },
      { timeout: 240_000, intervals: [2_000], message: "the ladder and its MP4s are done" },
    )
    .toBe(true);
  expect(renditions.map((r) => [r.name, r.phase])).toEqual([
    ["720p", "ready"],
    ["480p", "ready"],
    ["360p", "ready"],
  ]);

  // The page polls by itself until the ladder is done.
  await expect(card.locator('[data-testid="rendition"][data-phase="ready"]')).toHaveCount(3, { timeout: 60_000 });
  for (const r of renditions) {
    const row = card.getByTestId("rendition").filter({ hasText: r.name });
    await expect(row.getByRole("link", { name: `Download the ${r.name} MP4` })).toHaveAttribute("href", r.mp4Url!);
  }
  await expect(card).toContainText("1280×720");
  await expect(card).toContainText("30 fps");
  const mp4 = await page.request.get(renditions[2].mp4Url!, { headers: { range: "bytes=0-15" } });
  expect(mp4.status()).toBe(206);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shoot(page, "asset-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, "asset-390");

  // The library lists it as ready, with no ladder progress left.
  await page.goto("/assets");
  const listed = page
    .getByRole("list", { name: "Assets" })
    .getByRole("listitem")
    .filter({ hasText: `Ladder ${unique}` });
  await expect(listed).toContainText("ready");
  await expect(listed.getByTestId("ladder-progress")).toHaveCount(0);

  // The seek thumbnails are made while the ladder transcodes; the player reads them from the playback info.
  await expect
    .poll(async () => JSON.stringify(await (await page.request.get(`/api/playback/${asset.playbackId}`)).json()), { timeout: 60_000 })
    .toContain('"hrn":"Thumbnails"');

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/play/${asset.playbackId}`);
    const video = page.getByTestId("player-video");
    await play(video);
    await expectPlays(video, { beyond: 0.5, message: "it plays" });

    await page.getByRole("button", { name: /^Quality/ }).click();
    const menu = page.getByRole("menu", { name: "Quality" });
    await expect(menu.getByRole("menuitemradio")).toHaveText(["Auto", "720p", "480p", "360p"].map((l) => new RegExp(`^${l}`)));
    await shoot(page, `player-quality-${width}`);
    await menu.getByRole("menuitemradio", { name: "360p" }).click();
    // From the start: on a busy machine the 8 s video can have played to its end while the
    // menu was used, and an ended video shows no frame of the new quality.
    await play(video, { from: 0 });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 60_000, message: "360p plays" }).toBe(360);

    const seek = page.getByRole("slider", { name: "Seek" });
    const box = (await seek.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 4 });
    const thumbnail = page.getByTestId("seek-thumbnail");
    await expect(thumbnail).toBeVisible();
    await expect(page.getByTestId("seek-preview")).toContainText("0:03");
    // The tile is drawn from a sprite sheet that really loads.
    const image = await thumbnail.evaluate((el) => getComputedStyle(el).backgroundImage);
    const sprite = /url\("?([^")]+)"?\)/.exec(image)?.[1];
    expect(sprite).toMatch(/sprite_\d+\.jpg$/);
    expect((await page.request.get(sprite!)).headers()["content-type"]).toBe("image/jpeg");
    await shoot(page, `player-seek-${width}`);
  }
});
