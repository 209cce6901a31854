import fs from "node:fs";
import { expect, test } from "@playwright/test";

/**
 * The API reference in a real Chromium: everything it loads comes from this server (it works
 * offline), Scalar's add-ons are gone, and the guides are sections one can navigate to.
 */
const SHOTS = "/tmp/shots-docs";
const GUIDES = ["Uploading a video", "Live ingest", "Playback", "Webhooks", "Errors", "Lists and pagination"];

for (const width of [1440, 390]) {
  test(`/docs at ${width} px loads nothing from other origins and shows the guides`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    const origin = new URL(baseURL!).origin;
    const requested: string[] = [];
    const inFlight = new Set<string>();
    page.on("request", (r) => {
      requested.push(r.url());
      inFlight.add(r.url());
    });
    page.on("requestfinished", (r) => inFlight.delete(r.url()));
    page.on("requestfailed", (r) => inFlight.delete(r.url()));

    await page.goto("/docs");
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

    const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:"));
    expect(elsewhere).toEqual([]);
    expect(requested.some((url) => url.endsWith("/api/openapi.json"))).toBe(true);

    // Scalar renders its "Powered by" link whatever the configuration; the page's CSS hides it.
    await expect(page.getByText(/Powered by/i).filter({ visible: true })).toHaveCount(0);
    for (const addOn of [/Open API Client/i, /Test Request/i, /Ask AI/i, /Generate MCP/i, /Developer tools/i, /Powered by/i]) {
      await expect(page.getByRole("button", { name: addOn }).filter({ visible: true })).toHaveCount(0);
      await expect(page.getByRole("link", { name: addOn }).filter({ visible: true })).toHaveCount(0);
    }

    fs.mkdirSync(SHOTS, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/docs-${width}.png` });
    await page.getByRole("heading", { name: "Webhooks", exact: true }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/docs-webhooks-${width}.png` });
  });
}

test("guides and tags are reachable from the sidebar, tags with their descriptions and examples", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/docs");
  await page.getByRole("button", { name: "Open Group - Introduction" }).first().click();
  await page.getByRole("link", { name: "Lists and pagination" }).first().click();
  await expect(page.getByRole("heading", { name: "Lists and pagination", exact: true }).first()).toBeInViewport();
  await expect(page.getByText("Link: </api/stream?limit=100").first()).toBeInViewport();

  await page.getByRole("link", { name: "Streams", exact: true }).first().click();
  await expect(page.getByText("A stream is what an encoder").first()).toBeVisible();
  await page.getByRole("link", { name: "Create a stream" }).first().click();
  // The request example, not a schema's blanks ("name": "")
  await expect(page.getByText('"name": "Morning show"').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/docs-create-stream-1440.png` });
});
