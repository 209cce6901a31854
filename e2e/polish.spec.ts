import { expect, test, type Locator, type Page } from "@playwright/test";
import { makeBroadcastClip, publishFile, rtmpUrl, type Running } from "../test/support/media";
import { makeMedia, putFile, tmpDir } from "../test/support/vod";
import { fromDashboard, signUpByApi, unique } from "./accounts";
import { shoot } from "./support/screens";

/**
 * Small things that erode trust (issue 23): a live stream's page and its broadcast, the
 * not-found page, the video page on a phone, the way to the docs, the test-token helper.
 */

const api = async (page: Page, method: "post" | "patch", path: string, data: object) => {
  const res = await page.request[method](`/api${path}`, { headers: fromDashboard, data });
  expect(res.ok(), `${method} ${path}: ${res.status()}`).toBe(true);
  return res.status() === 204 ? undefined : await res.json();
};

/** How light an element's background is, 0 (black) to 1 (white), whether the browser says oklch() or rgb(). */
const lightness = (element: Locator) =>
  element.evaluate((el) => {
    const color = getComputedStyle(el).backgroundColor;
    const oklch = /oklch\(([\d.]+)/.exec(color);
    if (oklch) return Number(oklch[1]);
    const [r, g, b] = color.match(/[\d.]+/g)!.map(Number);
    return (r + g + b) / 765;
  });

/** Whether the visible labels of a time axis stand apart (each ends before the next begins). */
const labelsApart = (axis: Locator) =>
  axis.locator("span").evaluateAll((spans) => {
    const boxes = spans
      .map((s) => s.getBoundingClientRect())
      .filter((b) => b.width > 0)
      .sort((a, b) => a.left - b.left);
    return boxes.length >= 2 && boxes.every((b, i) => i === 0 || boxes[i - 1].right <= b.left);
  });

/** Whether `inner` lies wholly inside `outer`, horizontally. */
async function fitsIn(inner: Locator, outer: Locator | number) {
  const box = (await inner.boundingBox())!;
  const [left, right] = typeof outer === "number" ? [0, outer] : await outer.boundingBox().then((b) => [b!.x, b!.x + b!.width]);
  return box.x >= left - 0.5 && box.x + box.width <= right + 0.5;
}

test("a live stream: one current bitrate, charts with axes and a readout, the renamed name on its broadcast, and suspend asks first", async ({ page }) => {
  let publisher: Running | undefined;
  try {
    await signUpByApi(page);
    const oldName = `Morning show ${unique()}`;
    const stream = await api(page, "post", "/stream", { name: oldName });
    // A broadcast made once and sent as it is (no encoder running in real time for the whole
    // test); 10 minutes at most, it is stopped once the stream is suspended.
    const clip = `${tmpDir()}/broadcast.flv`;
    await makeBroadcastClip(clip);
    publisher = publishFile(rtmpUrl(stream.streamKey), clip, 600);
    await page.goto(`/streams/${stream.id}`);
    await expect(page.getByTestId("stream-status")).toHaveText("Live", { timeout: 60_000 });
    // Who is watching: the page's own preview player is a viewer, counted within seconds.
    await expect(page.getByTestId("viewer-count")).toHaveText(/^[1-9]\d*$/, { timeout: 60_000 });
    await shoot(page, "stream-live-1440", { fullPage: true });

    // One current bitrate, labelled; the history gives ranges, not a second "now".
    await expect(page.getByTestId("health-bitrate")).toHaveText(/^[\d,]+\s*kbps$/, { timeout: 60_000 });
    await expect(page.getByText("Bitrate, last 5 s")).toBeVisible();
    const bitrateChart = page.getByTestId("health-graph-bitrate");
    await expect(bitrateChart).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("health-readout").filter({ hasText: "now" })).toHaveCount(0);

    // Renamed while live: the broadcast's pages show the name it has now.
    const newName = `Evening show ${unique()}`;
    await api(page, "patch", `/stream/${stream.id}`, { name: newName });
    await page.goto("/broadcasts");
    await expect(page.getByRole("list", { name: "Broadcasts" }).getByRole("link", { name: newName })).toBeVisible();
    await page.getByRole("list", { name: "Broadcasts" }).getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(newName);
    await expect(page.getByText(`(named “${oldName}” then)`)).toBeVisible();

    // Axis values: the quantity with its unit, and times; a readout under the pointer and from the keyboard.
    const chart = page.getByTestId("health-graph-bitrate");
    await expect(chart).toContainText(/[\d,]+ kbps/);
    await expect(page.getByTestId("health-time-axis")).toHaveText(/^\d\d:\d\d(:\d\d)?.*now$/);
    const slider = chart.getByRole("slider", { name: "Bitrate over the broadcast" });
    const box = (await slider.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect(chart.getByTestId("health-readout")).toHaveText(/^\d\d:\d\d:\d\d: [\d,]+ kbps$/);
    await page.mouse.move(0, 0);
    await slider.focus();
    await page.keyboard.press("Home");
    await expect(slider).toHaveAttribute("aria-valuenow", "0");
    await expect(slider).toHaveAttribute("aria-valuetext", /^\d\d:\d\d:\d\d: [\d,]+ kbps$/);
    expect(await labelsApart(page.getByTestId("health-time-axis")), "time labels do not overlap").toBe(true);
    await shoot(page, "broadcast-1440", { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(chart).toBeVisible();
    expect(await fitsIn(chart, 390), "the chart fits a phone").toBe(true);
    expect(await labelsApart(page.getByTestId("health-time-axis")), "time labels do not overlap at 390 px").toBe(true);
    await shoot(page, "broadcast-390", { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Suspend asks first while live; cancelling changes nothing.
    await page.goto(`/streams/${stream.id}`);
    const suspend = page.getByRole("switch", { name: /Suspend/ });
    await suspend.click();
    const dialog = page.getByRole("dialog", { name: "Suspend this live stream?" });
    await expect(dialog).toContainText("cuts the broadcast");
    await shoot(page, "suspend-confirm");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(suspend).toHaveAttribute("aria-checked", "false");
    await expect(page.getByTestId("stream-status")).toHaveText("Live");
    await suspend.click();
    await dialog.getByRole("button", { name: "Suspend and cut the broadcast" }).click();
    await expect(dialog).toBeHidden();
    // "Suspended" shows once the stream is no longer live: the broadcast was cut.
    await expect(page.getByTestId("stream-status")).toHaveText("Suspended", { timeout: 30_000 });
  } finally {
    await publisher?.stop();
  }
});

// One test for both widths: each state (signed out and light, signed in and dark) is loaded once
// and looked at at 1440 px, then at 390 px.
test("unknown URLs show the dashboard's not-found page at 1440 and 390 px, signed out and in, light and dark", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 844 });
  const res = await page.goto(`/no-such-page-${unique()}`);
  expect(res!.status()).toBe(404);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await expect(page.getByRole("heading", { name: "This page does not exist" }), `at ${width} px`).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in");
    await expect(page.getByRole("link", { name: "API docs and guides" })).toHaveAttribute("href", "/docs");
    await shoot(page, `not-found-out-${width}`);
  }

  await signUpByApi(page);
  await page.emulateMedia({ colorScheme: "dark" });
  const signedIn = await page.goto(`/no-such-page-${unique()}`);
  expect(signedIn!.status()).toBe(404);
  const back = page.getByRole("link", { name: "Go to your streams" });
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 844 });
    await expect(back, `at ${width} px`).toBeVisible();
    expect(await lightness(page.locator("body")), "a dark page, as the dashboard's").toBeLessThan(0.3);
    await shoot(page, `not-found-in-dark-${width}`);
  }
  await back.click();
  await expect(page).toHaveURL(/\/streams$/);
});

test("the video page at 390 px: Open player and the player's time fit, and the download is named after the video", async ({ page }) => {
  await signUpByApi(page);
  const name = `Beach day ${unique()}`;
  const upload = await api(page, "post", "/asset/request-upload", { name });
  expect((await putFile(upload.url, await makeMedia(tmpDir(), "mp4", { seconds: 4 }))).status).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/assets/${upload.asset.id}`);
  await expect(page.getByTestId("asset-status")).toContainText("ready", { timeout: 90_000 });
  const open = page.getByRole("link", { name: "Open player" });
  await expect(open).toBeVisible();
  expect(await fitsIn(open, 390), "Open player is whole").toBe(true);

  const player = page.getByTestId("player");
  await player.hover();
  const time = player.getByTestId("player-time");
  await expect(time).toHaveText(/^0:00 \/ 0:0\d$/);
  const oneLine = await time.evaluate((el) => el.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(el).lineHeight));
  expect(oneLine, "the time stays on one line").toBe(true);
  for (const control of await player.getByRole("button").all()) {
    if (await control.isVisible()) expect(await fitsIn(control, player), `${await control.getAttribute("aria-label")} inside the player`).toBe(true);
  }
  await shoot(page, "video-390");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe(`${name}.mp4`);
});

test("the sidebar leads to the docs, and the test-token helper keeps its key for the tab", async ({ page }) => {
  await signUpByApi(page);
  const key = await api(page, "post", "/access-control/signing-key", { name: "Test key" });
  await page.goto("/access-control");
  const docs = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API docs and guides" });
  await expect(docs).toHaveAttribute("href", "/docs");
  const field = page.getByLabel("Private key");
  await expect(page.getByText("Kept in this tab until you close it or sign out")).toBeVisible();
  await field.fill(key.privateKey);
  await docs.click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "Castline API", level: 1 })).toBeVisible({ timeout: 60_000 });
  await page.goBack();
  await expect(field, "still there after leaving the page").toHaveValue(key.privateKey);
  await page.getByRole("button", { name: "Forget key" }).click();
  await expect(field).toHaveValue("");
  await page.reload();
  await expect(field).toHaveValue("");
});
