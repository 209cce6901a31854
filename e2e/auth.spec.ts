import { expect, test, type Page } from "@playwright/test";
import { fromDashboard, PASSWORD, signUp, signUpByApi, unique } from "./accounts";

/**
 * Signing in and out keeps the user on this app, at the origin the browser used (the
 * suite's app listens on a random port, not 3000), and brings them back to the page
 * they were sent to sign in from. Sign-up does not tell whether an email has an account.
 */

async function signIn(page: Page, email: string, secret = PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("signing out lands on this app's sign-in page", async ({ page, baseURL }) => {
  // The sign-up form itself, the one test that goes through it (the others make accounts through the API).
  await signUp(page, { email: `signout-${unique()}@example.com` });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${new URL(baseURL!).origin}/sign-in`);
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  // Signed out for real: the dashboard sends us back to sign in.
  await page.goto("/streams");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("a signed-out visit to a dashboard page returns to it after signing in", async ({ page, browser }) => {
  const email = `return-${unique()}@example.com`;
  await signUpByApi(page, { email });
  const res = await page.request.post("/api/stream", { headers: fromDashboard, data: { name: `Return ${unique()}` } });
  expect(res.status()).toBe(201);
  const stream = (await res.json()) as { id: string; name: string };

  const signedOut = await browser.newPage();
  const wanted = `/streams/${stream.id}`;
  await signedOut.goto(wanted);
  await expect(signedOut).toHaveURL(`/sign-in?callbackUrl=${encodeURIComponent(wanted)}`);
  await signIn(signedOut, email);
  await expect(signedOut).toHaveURL(wanted);
  await expect(signedOut.getByRole("heading", { level: 1, name: stream.name })).toBeVisible();

  // The query string comes back too.
  await signedOut.getByRole("button", { name: "Sign out" }).click();
  await expect(signedOut).toHaveURL(/\/sign-in$/);
  await signedOut.goto("/tasks?from=link");
  await signIn(signedOut, email);
  await expect(signedOut).toHaveURL("/tasks?from=link");
  await signedOut.close();
});

test("sign-in never follows a callback to another site", async ({ page, request }) => {
  const email = `offsite-${unique()}@example.com`;
  expect((await request.post("/api/user", { data: { email, password: PASSWORD } })).status()).toBe(201);
  for (const callbackUrl of ["https://evil.example/", "//evil.example/", "/\\evil.example/", "/\t/evil.example/"]) {
    // Signed out again for each case: one tab, its session cookie dropped.
    await page.context().clearCookies();
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await signIn(page, email);
    await expect(page, `callbackUrl=${JSON.stringify(callbackUrl)}`).toHaveURL(/^http:\/\/[^/]+\/streams$/);
    await expect(page.getByRole("heading", { level: 1, name: "Streams" })).toBeVisible();
  }
});

test("signing up with an email that has an account changes nothing and only the right password signs in", async ({ page, browser }) => {
  const email = `taken-${unique()}@example.com`;
  expect((await page.request.post("/api/user", { data: { email, password: PASSWORD } })).status()).toBe(201);

  const other = await browser.newPage();
  await other.goto("/sign-up");
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password").fill("another-password-entirely");
  await other.getByRole("button", { name: "Create account" }).click();
  await expect(other.getByText("Incorrect email or password.")).toBeVisible();
  await expect(other).toHaveURL(/\/sign-up$/);
  await other.close();

  await page.goto("/sign-in");
  await signIn(page, email);
  await expect(page).toHaveURL(/\/streams$/);
});
