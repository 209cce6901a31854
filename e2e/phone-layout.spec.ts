import { expect, test, type Locator } from "@playwright/test";
import { fromDashboard, signUp } from "./accounts";

/** At 390 px nothing a creator needs is hidden or cut: API key dates, webhook event names. */

const SHOTS = process.env.SCREENSHOT_DIR;

test.use({ viewport: { width: 390, height: 844 } });

/** Whether an element's own text fits it (a select's chosen option, a label's name). */
async function fitsItsText(element: Locator) {
  return element.evaluate((el) => {
    if (el instanceof HTMLSelectElement) {
      // A select draws its chosen option: measure that text in the select's font against the room it has.
      const style = getComputedStyle(el);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(el.selectedOptions[0]?.text ?? "").width <= room;
    }
    return el.scrollWidth <= el.clientWidth;
  });
}

test("API keys keep created and last used at 390 px", async ({ page }) => {
  await signUp(page);
  expect((await page.request.post("/api/api-key", { headers: fromDashboard, data: { name: "Phone key" } })).status()).toBe(201);
  await page.goto("/api-keys");
  const row = page.getByRole("row", { name: /Phone key/ });
  await expect(row.getByTestId("api-key-dates")).toBeVisible();
  await expect(row.getByTestId("api-key-dates")).toHaveText(/Created (just now|\d+ seconds? ago) · never used/);
  expect(await row.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/phone-api-keys.png` });
});

test("webhook event choices are whole at 390 px: the test-event list and the add dialog", async ({ page }) => {
  await signUp(page);
  // 93.184.215.14 is a public address; nothing is sent until an event happens.
  const res = await page.request.post("/api/webhook", {
    headers: fromDashboard,
    data: { name: "Phone hook", url: "https://93.184.215.14/hook", events: ["multistream.disconnected"] },
  });
  expect(res.status()).toBe(200);
  const webhook = (await res.json()) as { id: string };

  await page.goto(`/webhooks/${webhook.id}`);
  const testEvent = page.getByRole("combobox", { name: "Test event" });
  await expect(testEvent).toHaveValue("multistream.disconnected");
  expect(await fitsItsText(testEvent), "the longest event name shows whole").toBe(true);
  const box = await testEvent.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/phone-webhook.png` });

  await page.goto("/webhooks");
  await page.getByRole("button", { name: "Add webhook", exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add a webhook" });
  const boxes = dialog.getByRole("checkbox");
  const count = await boxes.count();
  expect(count).toBeGreaterThan(10);
  // Every event can be reached and ticked, down to the last one under the sticky buttons.
  for (let i = 0; i < count; i++) await boxes.nth(i).check();
  await expect(dialog.getByText(`${count} of ${count} selected`)).toBeVisible();
  const last = dialog.getByText("playback.accessControl", { exact: true });
  expect(await fitsItsText(last)).toBe(true);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/phone-add-webhook.png` });
});
