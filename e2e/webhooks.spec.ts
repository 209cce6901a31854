import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signUp, unique } from "./accounts";

/**
 * The webhook delivery log, end to end: a real receiver on this machine, the app's
 * background driver delivering to it (the app runs with ALLOW_PRIVATE_URLS=true),
 * and the dashboard showing each attempt, its retry, a resend and the webhook's health.
 */

interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A webhook endpoint that answers `statusFor(n)` to its n-th request and keeps every request. */
async function startReceiver(statusFor: (n: number) => number) {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      requests.push({ body, headers: req.headers });
      const status = statusFor(requests.length);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: requests.length, ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/castline-hook`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Adds a webhook through the dialog, opens its page, and gives back its signing secret. */
async function createWebhook(page: Page, name: string, url: string, event: string): Promise<string> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await page.getByRole("button", { name: "Add webhook" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Endpoint URL").fill(url);
  await dialog.getByRole("checkbox", { name: event }).check();
  await dialog.getByRole("button", { name: "Add webhook" }).click();
  const secret = (await dialog.getByTestId("webhook-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await dialog.getByRole("button", { name: "Done" }).click();

  const item = page.getByRole("list", { name: "Webhooks" }).getByRole("link", { name: new RegExp(name) });
  await expect(item).toContainText("No deliveries yet");
  await item.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return secret;
}

test("a test event is retried after a 500, shown in the log, and resent", async ({ page }) => {
  const receiver = await startReceiver((n) => (n === 1 ? 500 : 200));
  const name = `Flaky endpoint ${unique()}`;
  try {
    await signUp(page, { name: "Webhook Tester" });
    const secret = await createWebhook(page, name, receiver.url, "stream.started");

    const deliveries = page.getByRole("list", { name: "Deliveries" });
    const attempts = deliveries.getByRole("listitem");
    let eventId = "";

    await test.step("an empty log invites a test event", async () => {
      await expect(page.getByText("No deliveries yet — send a test event")).toBeVisible();
      await expect(page.getByRole("combobox", { name: "Test event" })).toHaveValue("stream.started");
    });

    await test.step("send a test event: a 500, then the automatic retry succeeds", async () => {
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect(page.getByRole("status").filter({ hasText: "queued" })).toContainText("stream.started");

      await expect(attempts).toHaveCount(2);
      // Newest first: the retry, then the first attempt.
      await expect(attempts.nth(0)).toContainText("Delivered");
      await expect(attempts.nth(0)).toContainText("200");
      await expect(attempts.nth(1)).toContainText("Failed");
      await expect(attempts.nth(1)).toContainText("500");
      await expect(attempts.nth(1)).toContainText("Internal Server Error");

      // Both were the same event, signed with the webhook's secret.
      expect(receiver.requests).toHaveLength(2);
      const ids = receiver.requests.map((r) => JSON.parse(r.body).id as string);
      expect(ids[1]).toBe(ids[0]);
      eventId = ids[0];
      for (const { body, headers } of receiver.requests) {
        expect(headers["castline-event-id"]).toBe(eventId);
        const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers["castline-signature"])) ?? [];
        expect(v1).toBe(createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"));
      }
      await expect(attempts.nth(0)).toContainText(eventId.slice(0, 8));
      await expect(attempts.nth(1)).toContainText(eventId.slice(0, 8));
    });

    await test.step("expand the failed attempt: request headers and body, response status and body", async () => {
      await attempts
        .nth(1)
        .getByRole("button", { name: /^Details of/ })
        .click();
      const details = page.getByRole("region", { name: "stream.started attempt details" });
      await expect(details).toBeVisible();
      await expect(details.getByLabel("Request body", { exact: true })).toContainText(`"id": "${eventId}"`);
      await expect(details.getByLabel("Request body", { exact: true })).toContainText(`"event": "stream.started"`);
      const headers = details.getByLabel("Request headers", { exact: true });
      await expect(headers).toContainText("castline-signature");
      await expect(headers).toContainText("livepeer-signature");
      // The failed attempt was the receiver's first request: the same signature is on screen.
      await expect(headers).toContainText(String(receiver.requests[0].headers["castline-signature"]));
      await expect(details).toContainText("500 Internal Server Error");
      await expect(details.getByLabel("Response body", { exact: true })).toContainText(`"ok": false`);

      await attempts
        .nth(1)
        .getByRole("button", { name: /^Details of/ })
        .click();
      await expect(details).toHaveCount(0);
    });

    await test.step("resend the successful attempt: a third delivery of the same event", async () => {
      await attempts.nth(0).getByRole("button", { name: "Resend" }).click();
      // The new attempt may already be on top by now, pushing the resent one down.
      await expect(deliveries.getByRole("status").filter({ hasText: "Queued" })).toBeVisible();

      await expect(attempts).toHaveCount(3);
      await expect(attempts.nth(0)).toContainText("Delivered");
      await expect(attempts.nth(0)).toContainText(eventId.slice(0, 8));
      await expect.poll(() => receiver.requests.length).toBe(3);
      expect(JSON.parse(receiver.requests[2].body).id).toBe(eventId);
    });

    await test.step("the list shows the webhook as healthy", async () => {
      await page.getByRole("link", { name: "Webhooks" }).first().click();
      const item = page.getByRole("list", { name: "Webhooks" }).getByRole("link", { name: new RegExp(name) });
      await expect(item).toContainText("Healthy");
      await expect(item).not.toContainText("Failing");
      await expect(item).toContainText("Last delivery");
    });
  } finally {
    await receiver.close();
  }
});

test("a webhook whose endpoint answers 404 shows as failing in the list", async ({ page }) => {
  const receiver = await startReceiver(() => 404);
  const name = `Missing endpoint ${unique()}`;
  try {
    await signUp(page, { name: "Webhook Tester" });
    await createWebhook(page, name, receiver.url, "asset.ready");

    await page.getByRole("button", { name: "Send test event" }).click();
    const attempt = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText("Failed");
    await expect(attempt).toContainText("404");
    await expect(page.getByRole("heading", { level: 1, name }).locator("..")).toContainText("Failing");

    await page.getByRole("link", { name: "Webhooks" }).first().click();
    const item = page.getByRole("list", { name: "Webhooks" }).getByRole("link", { name: new RegExp(name) });
    await expect(item).toContainText("Failing");
    await expect(item).toContainText("HTTP 404 Not Found");
    // A 4xx other than 408 and 429 is final: no retry reached the receiver.
    expect(receiver.requests).toHaveLength(1);
  } finally {
    await receiver.close();
  }
});
