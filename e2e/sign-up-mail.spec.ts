import { expect, test } from "@playwright/test";
import type { AppProcess } from "../scripts/app-process";
import { until } from "../test/support/media";
import { startScratchApp } from "../test/support/scratch-app";
import { startSmtpServer } from "../test/support/smtp";
import { PASSWORD, unique } from "./accounts";

/**
 * With a mail server, signing up in the dashboard says to check the inbox, and the mailed
 * link's page makes the account. (Its own app: the suite's has no SMTP_URL.)
 */

let app: AppProcess;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

test.beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startScratchApp({ SMTP_URL: smtp.url, MAIL_FROM: "Castline <castline@example.com>" });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

test("sign up, follow the mailed link, sign in", async ({ page }) => {
  const email = `mailed-${unique()}@example.com`;
  await page.goto(`${app.url}/sign-up`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText(`We sent a mail to ${email}`);
  await expect(page).toHaveURL(/\/sign-up$/);

  const mail = await until("the sign-up mail", async () => smtp.mails.find((m) => m.to.includes(email)), 60_000);
  const link = /https?:\/\/\S+\/sign-up\/verify#\S+/.exec(mail.text)![0];
  await page.goto(link);
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("status")).toContainText(`Your account for ${email} is ready`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/streams$/);
  await expect(page.getByTestId("user-email").first()).toHaveText(email);

  // The same link again: the account is there, nothing changes.
  await page.goto(link);
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("status")).toContainText("is ready");
});
