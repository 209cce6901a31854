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
 * A new creator's account made as the sign-up form makes it (POST /api/user, then Auth.js's
 * credentials sign-in), without loading a page: for tests where the form is not what is tested
 * (auth.spec.ts signs up through it). The session cookie lands in the page's context, so its
 * pages and `page.request` are signed in. Answers the email.
 */
export async function signUpByApi(page: Page, { email = `creator-${unique()}@example.com`, name }: { email?: string; name?: string } = {}) {
  const created = await page.request.post("/api/user", { data: { email, password: PASSWORD, ...(name ? { name } : {}) } });
  expect(created.status(), "POST /api/user").toBe(201);
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await page.request.post("/api/auth/callback/credentials", {
    headers: fromDashboard,
    form: { email, password: PASSWORD, csrfToken, json: "true" },
    maxRedirects: 0,
  });
  const cookies = await page.context().cookies();
  expect(
    cookies.some((c) => c.name.endsWith("authjs.session-token")),
    "signed in",
  ).toBe(true);
  return email;
}

/**
 * Headers of the signed-in creator's API calls through `page.request`, as the dashboard's own
 * pages make them: a browser names the page's origin, and cookie-authenticated changes that
 * name no page of this app are refused.
 */
export const fromDashboard = { origin: new URL(process.env.CASTLINE_URL!).origin };
