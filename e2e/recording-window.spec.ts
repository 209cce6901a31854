import { expect, test } from "@playwright/test";
import { fromDashboard, signUp, unique } from "./accounts";
import { shoot, VIEWPORTS } from "./support/screens";

/** A creator sets how long a recorded broadcast waits for the encoder to reconnect, in the stream's settings. */

for (const [label, viewport] of VIEWPORTS) {
  test(`the reconnect window is a stream setting: shown, refused out of range, saved (${label})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signUp(page);
    const res = await page.request.post("/api/stream", { headers: fromDashboard, data: { name: `Podcast ${unique()}`, record: true } });
    expect(res.status()).toBe(201);
    const stream = (await res.json()) as { id: string; reconnectWindow: number };
    await page.goto(`/streams/${stream.id}`);

    const field = page.getByLabel("Reconnect window");
    await expect(field, "the deployment's default shows").toHaveValue(String(stream.reconnectWindow));
    const setting = page.locator("form").filter({ has: field });
    const save = setting.getByRole("button", { name: "Save", exact: true });
    await expect(save, "nothing to save yet").toBeDisabled();

    await field.scrollIntoViewIfNeeded();
    await field.fill("1801");
    await save.click();
    await expect(setting.getByRole("alert")).toContainText("at most 1800 seconds");
    await shoot(page, `reconnect-window-refused-${viewport.width}`);
    expect(((await (await page.request.get(`/api/stream/${stream.id}`)).json()) as { reconnectWindow: number }).reconnectWindow, "nothing changed").toBe(
      stream.reconnectWindow,
    );

    await field.fill("0");
    await save.click();
    await expect(setting.getByRole("alert")).toHaveCount(0);
    await expect(save).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel("Reconnect window"), "saved").toHaveValue("0");
    await field.scrollIntoViewIfNeeded();
    await shoot(page, `reconnect-window-saved-${viewport.width}`);
  });
}
