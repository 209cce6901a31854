import { expect, type Page } from "@playwright/test";

/** A new creator's account, signed in through the form; lands on the streams page. */
export async function signUp(page: Page, who: string) {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(`${who}-${unique}@example.com`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/streams$/);
}
