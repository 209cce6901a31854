import { expect, type Page } from "@playwright/test";

/** A suffix no other run of the suite has used: names and emails stay apart across tests. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const PASSWORD = "correct-horse-battery";

/** A new creator's account, signed up through the form; lands on the streams page. Answers the email. */
export async function signUp(page: Page, { email = `creator-${unique()}@example.com`, name }: { email?: string; name?: string } = {}) {
  await page.goto("/sign-up");
  if (name) await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/streams$/);
  return email;
}

/**
 * Headers of the signed-in creator's API calls through `page.request`, as the dashboard's own
 * pages make them: a browser names the page's origin, and cookie-authenticated changes that
 * name no page of this app are refused.
 */
export const fromDashboard = { origin: new URL(process.env.CASTLINE_URL!).origin };
