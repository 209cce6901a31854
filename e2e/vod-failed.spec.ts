import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { fromDashboard } from "./accounts";
import { scratchFile } from "./support/video";

/**
 * A file that is not a video uploads, then fails processing: its row says so in red
 * (no green tick, no green bar), and the asset library asks for no thumbnail that
 * does not exist (nothing 404s, nothing in the console).
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("a failed upload looks failed, and the library requests only thumbnails that exist", async ({ page }) => {
  const file = scratchFile(`noise-${unique}.mp4`);
  fs.writeFileSync(file, randomBytes(256 * 1024));

  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(`noise-${unique}@example.com`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/streams$/);

  const missing: string[] = [];
  const consoleErrors: string[] = [];
  page.on("response", (res) => void (res.status() === 404 && missing.push(res.url())));
  page.on("console", (msg) => void (msg.type() === "error" && consoleErrors.push(msg.text())));

  await page.goto("/assets");
  await page.getByTestId("asset-file-input").setInputFiles(file);
  const row = page.getByTestId("upload-row").filter({ hasText: path.basename(file) });
  await expect(row.getByText("failed", { exact: true }), "processing fails").toBeVisible({ timeout: 60_000 });
  await expect(row.getByRole("img", { name: "Failed" })).toBeVisible();
  await expect(row.getByRole("img", { name: /uploaded|ready/i })).toHaveCount(0);
  await expect(row.getByRole("progressbar")).toHaveAttribute("data-tone", "red");
  await expect(page.getByRole("heading", { name: "Uploads" }).locator("..")).toContainText("1 failed");

  // A video that never arrives (waiting) has no thumbnail either.
  expect((await page.request.post("/api/asset/request-upload", { headers: fromDashboard, data: { name: `Waiting ${unique}` } })).ok()).toBe(true);
  await page.reload();
  await expect(page.getByText(`Waiting ${unique}`).first()).toBeVisible();
  await expect(page.getByText(`noise-${unique}.mp4`).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(missing, "requests answered 404").toEqual([]);
  expect(consoleErrors, "console errors").toEqual([]);
});
