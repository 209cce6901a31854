import { expect, test, type Page } from "@playwright/test";
import { fromDashboard, signUp } from "./accounts";

/**
 * Every dialog puts the keyboard where the work is: its first field, or, in a confirmation
 * without fields, Cancel (so Enter never confirms by accident), never the close button.
 */

async function opens(page: Page, button: string, dialogName: string, focused: { label: string | RegExp } | "Cancel") {
  await page.getByRole("button", { name: button, exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: dialogName });
  await expect(dialog).toBeVisible();
  const target =
    focused === "Cancel" ? dialog.getByRole("button", { name: "Cancel" }) : dialog.getByLabel(focused.label, { exact: typeof focused.label === "string" });
  await expect(target, `${dialogName}: focus`).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

test("each dialog focuses its first field, or Cancel when it only asks", async ({ page }) => {
  await signUp(page);
  const stream = (await (await page.request.post("/api/stream", { headers: fromDashboard, data: { name: "Focus show" } })).json()) as { id: string };
  expect((await page.request.post("/api/api-key", { headers: fromDashboard, data: { name: "Focus key" } })).status()).toBe(201);

  await page.goto("/streams");
  await opens(page, "New stream", "Create a stream", { label: "Stream name" });

  await page.goto(`/streams/${stream.id}`);
  await opens(page, "Rename", "Rename stream", { label: "Name" });
  await opens(page, "Rotate key", "Rotate the stream key?", "Cancel");
  await opens(page, "Delete stream", "Delete this stream?", "Cancel");

  await page.goto("/api-keys");
  await opens(page, "Create API key", "Create API key", { label: "Name" });
  await opens(page, "Revoke Focus key", "Revoke API key?", "Cancel");

  await page.goto("/webhooks");
  await opens(page, "Add webhook", "Add a webhook", { label: "Name" });

  await page.goto("/targets");
  await opens(page, "Add target", "Add a multistream target", { label: "Ingest URL" });

  await page.goto("/access-control");
  // Its name is optional, so its label says so.
  await opens(page, "Create signing key", "Create signing key", { label: /^Name/ });

  await page.goto("/assets");
  await opens(page, "Import from URL", "Import a video from a URL", { label: "Video URL" });
});
