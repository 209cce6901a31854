import { expect, test, type Page } from "@playwright/test";
import { shoot } from "./support/screens";

/**
 * The API reference in a real Chromium: everything it loads comes from this server (it works
 * offline), Scalar's add-ons are gone, and the guides are sections one can navigate to. One
 * load of /docs, checked at 1440 px and then at 390 px (Scalar lays itself out again on resize;
 * a second load would only repeat the downloads and its costly first render).
 */
const GUIDES = ["Uploading a video", "Live ingest", "Playback", "Webhooks", "Errors", "Lists and pagination"];

/** Every guide is a section one can scroll to, and no add-on shows, at the page's current width. */
async function guidesAndNoAddOns(page: Page, inFlight: Set<string>) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole("heading", { name: "Castline API", level: 1 })).toBeVisible();
  for (const guide of GUIDES) {
    const heading = page.getByRole("heading", { name: guide, exact: true }).first();
    await heading.scrollIntoViewIfNeeded();
    await expect(heading).toBeVisible();
  }
  // Scroll through it all, so lazily rendered sections (and anything they would fetch) load too.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 2000) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  await expect.poll(() => [...inFlight], { timeout: 30_000 }).toEqual([]);

  // Scalar renders its "Powered by" link whatever the configuration; the page's CSS hides it.
  await expect(page.getByText(/Powered by/i).filter({ visible: true })).toHaveCount(0);
  for (const addOn of [/Open API Client/i, /Test Request/i, /Ask AI/i, /Generate MCP/i, /Developer tools/i, /Powered by/i]) {
    await expect(page.getByRole("button", { name: addOn }).filter({ visible: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: addOn }).filter({ visible: true })).toHaveCount(0);
  }
}

test("/docs at 1440 and 390 px loads nothing from other origins and shows the guides; guides and tags are reachable from the sidebar", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const requested: string[] = [];
  const inFlight = new Set<string>();
  page.on("request", (r) => {
    requested.push(r.url());
    inFlight.add(r.url());
  });
  page.on("requestfinished", (r) => inFlight.delete(r.url()));
  page.on("requestfailed", (r) => inFlight.delete(r.url()));

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/docs");

  await test.step("at 1440 px: the guides, and no add-ons", async () => {
    await guidesAndNoAddOns(page, inFlight);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "docs-1440");
    await page.getByRole("heading", { name: "Webhooks", exact: true }).first().scrollIntoViewIfNeeded();
    await shoot(page, "docs-webhooks-1440");
  });

  await test.step("guides and tags are reachable from the sidebar, tags with their descriptions and examples", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("button", { name: "Open Group - Introduction" }).first().click();
    await page.getByRole("link", { name: "Lists and pagination" }).first().click();
    await expect(page.getByRole("heading", { name: "Lists and pagination", exact: true }).first()).toBeInViewport();
    await expect(page.getByText("Link: </api/stream?limit=100").first()).toBeInViewport();

    await page.getByRole("link", { name: "Streams", exact: true }).first().click();
    await expect(page.getByText("A stream is what an encoder").first()).toBeVisible();
    await page.getByRole("link", { name: "Create a stream" }).first().click();
    // The request example, not a schema's blanks ("name": "")
    await expect(page.getByText('"name": "Morning show"').first()).toBeVisible();
    await shoot(page, "docs-create-stream-1440");
  });

  await test.step("at 390 px: the guides, and no add-ons", async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    await guidesAndNoAddOns(page, inFlight);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "docs-390");
    await page.getByRole("heading", { name: "Webhooks", exact: true }).first().scrollIntoViewIfNeeded();
    await shoot(page, "docs-webhooks-390");
  });

  // Whatever either width rendered, all of it came from this server.
  const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:"));
  expect(elsewhere).toEqual([]);
  expect(requested.some((url) => url.endsWith("/api/openapi.json"))).toBe(true);
});
