import { expect, test } from "@playwright/test";
import { fromDashboard } from "./accounts";

/**
 * A creator with more streams than one page finds one by name: the search asks the
 * server, so it reaches the streams not loaded yet; the search stays in the page's URL;
 * filters and the sort work beside it, and clearing brings the whole list back.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const STREAMS = 60; // more than the dashboard's page of 50

test("searching, filtering and sorting the streams list", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("E2E Finder");
  await page.getByLabel("Email").fill(`e2e-find-${unique}@example.com`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/streams$/);

  // The oldest stream is the one to find: newest first, it is beyond the first page.
  const create = async (name: string) =>
    expect((await page.request.post("/api/stream", { headers: fromDashboard, data: { name, record: name.startsWith("Needle") } })).status()).toBe(201);
  await create(`Needle in the haystack ${unique}`);
  for (let i = 0; i < STREAMS - 1; i++) await create(`Hay ${i}`);

  await page.reload();
  const rows = page.getByRole("list", { name: "Streams" }).getByRole("listitem");
  await expect(page.getByText("50+ streams")).toBeVisible();
  await expect(rows).toHaveCount(50);
  await expect(page.getByText(`Needle in the haystack ${unique}`)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("streams-1440.png"), fullPage: false });

  await test.step("a search reaches every stream, not only the loaded page, and stays in the URL", async () => {
    await page.getByRole("searchbox", { name: "Search streams by name" }).fill("NEEDLE");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Needle in the haystack ${unique}`);
    await expect(page).toHaveURL(/[?&]filters=/);
    await page.reload();
    await expect(page.getByRole("searchbox", { name: "Search streams by name" })).toHaveValue("NEEDLE");
    await expect(rows).toHaveCount(1);
  });

  await test.step("a filter beside the search: nothing matches, then clearing brings everything back", async () => {
    await page.getByLabel("Status").selectOption("live");
    await expect(page.getByText("No streams match")).toBeVisible();
    await page.getByLabel("Status").selectOption("recording");
    await expect(rows).toHaveCount(1);
    await page.getByLabel("Status").selectOption("live");
    await page.getByRole("button", { name: "Clear search and filters" }).click();
    await expect(page.getByRole("searchbox", { name: "Search streams by name" })).toHaveValue("");
    await expect(rows).toHaveCount(50);
  });

  await test.step("sorted oldest first, the stream to find leads; load more reaches the rest", async () => {
    await page.getByLabel("Sort").selectOption("createdAt-false");
    await expect(page).toHaveURL(/order=createdAt-false/);
    await expect(rows.first()).toContainText(`Needle in the haystack ${unique}`);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(STREAMS);
    await expect(page.getByText(`${STREAMS} streams`)).toBeVisible();
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("searchbox", { name: "Search streams by name" }).fill("hay 1");
  await expect(rows).toHaveCount(11); // Hay 1, Hay 10..19
  await page.screenshot({ path: testInfo.outputPath("streams-390.png") });
});
