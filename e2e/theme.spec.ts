import { expect, test, type Page } from "@playwright/test";
import { fromDashboard, signUp } from "./accounts";

/**
 * Dark mode: the dashboard follows the system until the creator picks a theme in the sidebar;
 * the choice survives a reload and applies before the first paint. Regions painted dark in both
 * themes (sidebar, code, the player) keep their light text.
 */

const SHOTS = process.env.SCREENSHOT_DIR;

/** The page's background lightness, 0 (black) to 255 (white), as the browser computed it. */
async function backgroundLightness(page: Page) {
  return page.evaluate(() => {
    const probe = document.createElement("canvas").getContext("2d")!;
    probe.fillStyle = getComputedStyle(document.body).backgroundColor;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
    return Math.round((r + g + b) / 3);
  });
}

async function lightnessOf(page: Page, selector: string, property: "color" | "backgroundColor") {
  return page
    .locator(selector)
    .first()
    .evaluate((element, property) => {
      const probe = document.createElement("canvas").getContext("2d")!;
      probe.fillStyle = getComputedStyle(element)[property];
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
      return Math.round((r + g + b) / 3);
    }, property);
}

test.use({ colorScheme: "dark" });

test("the dashboard follows a dark system, and a chosen theme sticks across reloads", async ({ page }) => {
  await signUp(page);
  const stream = (await (await page.request.post("/api/stream", { headers: fromDashboard, data: { name: "Night show" } })).json()) as { id: string };
  await page.goto(`/streams/${stream.id}`);
  const theme = page.getByRole("group", { name: "Theme" }).first();

  await test.step("a dark system gets a dark page, with readable text", async () => {
    await expect(theme.getByRole("button", { name: "System theme" })).toHaveAttribute("aria-pressed", "true");
    expect(await backgroundLightness(page)).toBeLessThan(40);
    expect(await lightnessOf(page, "h1", "color")).toBeGreaterThan(200);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/theme-dark-stream.png`, fullPage: true });
  });

  await test.step("the sidebar, the code and the player's area stay dark with light text", async () => {
    await expect(page.getByRole("link", { name: "Streams" }).first()).toBeVisible();
    expect(await lightnessOf(page, 'nav[aria-label="Main"] a[aria-current="page"]', "color")).toBeGreaterThan(200);
    expect(await lightnessOf(page, '[data-testid="live-preview"]', "backgroundColor")).toBeLessThan(40);
    expect(await lightnessOf(page, "pre", "color")).toBeGreaterThan(200);
  });

  await test.step("choosing Light turns the page light at once, and it stays light after a reload", async () => {
    await theme.getByRole("button", { name: "Light theme" }).click();
    await expect(theme.getByRole("button", { name: "Light theme" })).toHaveAttribute("aria-pressed", "true");
    expect(await backgroundLightness(page)).toBeGreaterThan(230);
    expect(await lightnessOf(page, "h1", "color")).toBeLessThan(60);
    await page.reload();
    expect(await backgroundLightness(page)).toBeGreaterThan(230);
    await expect(page.getByRole("group", { name: "Theme" }).first().getByRole("button", { name: "Light theme" })).toHaveAttribute("aria-pressed", "true");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/theme-light-stream.png` });
  });

  await test.step("the stored choice is on the page before any script of the app runs (no white flash)", async () => {
    await theme.getByRole("button", { name: "Dark theme" }).click();
    // What the server's HTML paints first: the head script alone, without the app's JavaScript.
    await page.route(/\/_next\/static\/chunks\/.*\.js$/, (route) => route.abort());
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await backgroundLightness(page)).toBeLessThan(40);
    await page.unroute(/\/_next\/static\/chunks\/.*\.js$/);
  });

  await test.step("System goes back to following the system", async () => {
    await page.reload();
    await page.getByRole("group", { name: "Theme" }).first().getByRole("button", { name: "System theme" }).click();
    await page.emulateMedia({ colorScheme: "light" });
    expect(await backgroundLightness(page)).toBeGreaterThan(230);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await backgroundLightness(page)).toBeLessThan(40);
  });
});

test("sign-in follows the system theme too", async ({ page }) => {
  await page.goto("/sign-in");
  expect(await backgroundLightness(page)).toBeLessThan(40);
  expect(await lightnessOf(page, "h1", "color")).toBeGreaterThan(200);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/theme-dark-sign-in.png` });
});
