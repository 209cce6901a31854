import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { operations } from "@/lib/api/operations";
import { BASE, newAccount, type Api } from "../test/support/client";
import { shoot } from "./support/screens";

/**
 * The creator's viewership pages, from views seeded as players report them (beacons over HTTP):
 * a stream's and a video's card (totals, charts, breakdowns), the account's overview (totals, top
 * content by views and by watch time, usage), the empty state, and the layout at 390 px.
 */

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** A view's life in beacons: start, first frame, a heartbeat at `playedMs`, its exit (as test/analytics.test.ts). */
async function view(playbackId: string, opts: { playedMs: number; ttffMs?: number; error?: boolean; userAgent?: string }) {
  const base = { playbackId, viewId: randomUUID(), viewerId: randomUUID(), mode: "hls" };
  const send = async (beacon: object) => {
    const res = await fetch(`${BASE}/api/data/views/beacon`, {
      method: "POST",
      headers: { "content-type": "text/plain", "user-agent": opts.userAgent ?? CHROME },
      body: JSON.stringify({ ...base, ...beacon }),
    });
    expect(res.status, JSON.stringify(beacon)).toBe(204);
  };
  const played = { playedMs: opts.playedMs, ttffMs: opts.ttffMs, errorCount: opts.error ? 1 : 0, ...(opts.error && { errorType: "networkError" }) };
  await send({ event: "start" });
  if (opts.ttffMs !== undefined) await send({ event: "firstFrame", ttffMs: opts.ttffMs });
  await send({ event: "heartbeat", ...played });
  await send({ event: "exit", ...played, ended: true });
}

/** Views of the account rolled up (every 10 s), as the pages will ask for them. */
async function rolledUp(api: Api, views: number) {
  await expect
    .poll(async () => (await api.call(operations.getViewership, {})).body[0]?.viewCount, { message: "the seeded views rolled up", timeout: 90_000 })
    .toBe(views);
}

/** The browser signs in as the account newAccount made: its session cookie. */
async function signIn(page: Page, cookie: string) {
  const at = cookie.indexOf("=");
  await page.context().addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: BASE }]);
}

/** Nothing on the page is wider than the screen: no sideways scrolling. */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "no horizontal overflow").toBeLessThanOrEqual(width);
}

const rowOf = (page: Page, dimension: string, name: string) => page.getByTestId(`breakdown-${dimension}`).getByRole("listitem").filter({ hasText: name });

test("a stream's and a video's viewership, the account's overview, the empty state, and all of it at 390 px", async ({ page }) => {
  const api = await newAccount();
  const suffix = randomUUID().slice(0, 6);
  const stream = (await api.post("stream", { name: `Morning show ${suffix}` })).body;
  const quiet = (await api.post("stream", { name: `Quiet stream ${suffix}` })).body;
  const asset = (await api.post("asset/request-upload", { name: `Harbour tour ${suffix}` })).body.asset;
  // The stream: two desktop Chrome views (one left before its first frame) and an iPhone view that met an error: 3 views, 1 minute.
  // The video: two views of 45 s, 1.5 minutes: fewer views than the stream, more watch time.
  // (A view may claim at most a minute more than the time since it began: these all began just now.)
  await view(stream.playbackId, { playedMs: 40_000, ttffMs: 400 });
  await view(stream.playbackId, { playedMs: 20_000, ttffMs: 800, error: true, userAgent: IPHONE });
  await view(stream.playbackId, { playedMs: 0 });
  await view(asset.playbackId, { playedMs: 45_000, ttffMs: 1200 });
  await view(asset.playbackId, { playedMs: 45_000, ttffMs: 600 });
  await rolledUp(api, 5);
  await signIn(page, api.cookie);
  await page.setViewportSize({ width: 1280, height: 900 });

  await test.step("the stream's page: totals, a chart a figure, and who watched", async () => {
    await page.goto(`/streams/${stream.id}`);
    const card = page.locator("#viewership");
    await expect(card.getByTestId("views-total")).toHaveText("3");
    await expect(card.getByTestId("views-minutes")).toHaveText(/^1\s*min$/);
    await expect(card.getByTestId("views-errors")).toHaveText("33.3%");
    await expect(card.getByTestId("views-chart-views").getByTestId("views-chart-readout")).toHaveText("3 in all");
    await expect(card.getByTestId("views-chart-minutes").getByTestId("views-chart-readout")).toHaveText("1 min in all");
    for (const id of ["ttff", "rebuffer", "errors"]) await expect(card.getByTestId(`views-chart-${id}`)).toBeVisible();
    await expect(rowOf(page, "browser", "Chrome")).toContainText("2 views");
    await expect(rowOf(page, "browser", "Mobile Safari")).toContainText("1 view");
    await expect(rowOf(page, "deviceType", "Desktop")).toContainText("2 views");
    await expect(rowOf(page, "deviceType", "Mobile")).toContainText("1 view · 0.33 min");
    await expect(rowOf(page, "os", "iOS")).toContainText("1 view");
    // No GeoIP database nor CDN header in the app under test: the country is unknown.
    await expect(rowOf(page, "country", "Unknown")).toContainText("3 views");
    await shoot(page, "viewership-stream", { fullPage: true });
  });

  await test.step("a range with the views, and the range in the URL", async () => {
    const card = page.locator("#viewership");
    await card.getByRole("button", { name: "Last 24 hours" }).click();
    await expect(page).toHaveURL(/\?range=24h$/);
    await expect(card.getByRole("button", { name: "Last 24 hours" })).toHaveAttribute("aria-pressed", "true");
    await expect(card.getByTestId("views-total")).toHaveText("3");
  });

  await test.step("the video's page", async () => {
    await page.goto(`/assets/${asset.id}`);
    const card = page.locator("#viewership");
    await expect(card.getByTestId("views-total")).toHaveText("2");
    await expect(card.getByTestId("views-minutes")).toHaveText(/^1\.5\s*min$/);
    await expect(rowOf(page, "browser", "Chrome")).toContainText("2 views · 1.5 min");
  });

  await test.step("a stream nobody watched says so", async () => {
    await page.goto(`/streams/${quiet.id}`);
    const card = page.locator("#viewership");
    await expect(card.getByText("No views yet")).toBeVisible();
    await expect(card.getByText("Views appear here within a minute of someone watching.")).toBeVisible();
    await expect(card.getByTestId("views-total")).toHaveCount(0);
  });

  await test.step("the overview: totals, top content by views and by watch time, usage", async () => {
    await page.goto("/streams");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Viewership" }).click();
    await expect(page).toHaveURL(/\/viewership$/);
    await expect(page.getByTestId("views-total")).toHaveText("5");
    await expect(page.getByTestId("views-minutes")).toHaveText(/^2\.5\s*min$/);
    await expect(page.getByTestId("views-now")).toHaveText("0");
    const top = page.getByTestId("top-content").getByRole("row");
    await expect(top).toHaveText([/Stream or video/, new RegExp(`Morning show ${suffix}\\s*3\\s*1`), new RegExp(`Harbour tour ${suffix}\\s*2\\s*1.5`)]);
    await page.getByRole("button", { name: "Watch time" }).click();
    await expect(top.nth(1)).toContainText(`Harbour tour ${suffix}`);
    await expect(page.getByTestId("usage-delivered")).toHaveText(/^2\.5\s*min$/);
    await expect(rowOf(page, "browser", "Chrome")).toContainText("4 views");
    await shoot(page, "viewership-overview", { fullPage: true });
    await top.nth(1).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/assets/${asset.id}$`));
  });

  await test.step("at 390 px nothing is wider than the screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [`/streams/${stream.id}`, `/assets/${asset.id}`, "/viewership"]) {
      await page.goto(path);
      await expect(page.getByTestId("views-total").first()).toBeVisible();
      await expect(page.getByTestId("views-trends").first()).toBeVisible();
      await fitsWidth(page, 390);
      await shoot(page, `phone-viewership-${path.split("/")[1]}`, { fullPage: true });
    }
  });
});
