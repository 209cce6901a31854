import { expect, test, type Page } from "@playwright/test";
import { fromDashboard, signUp, signUpByApi, unique } from "./accounts";
import { publish, rtmpUrl, type Running } from "../test/support/media";

/** A creator renames a stream and a video, changes the renditions, and rotates a leaked key. */

const id = unique();
const SHOTS = process.env.SCREENSHOT_DIR;

/** Screenshots for a look at the layout, at desktop and phone widths, when SCREENSHOT_DIR is set. */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("rename a stream, edit its renditions, rotate its key (a live broadcast on the old key is cut)", async ({ page }) => {
  let publisher: Running | undefined;
  try {
    await signUp(page);
    const res = await page.request.post("/api/stream", {
      headers: fromDashboard,
      data: { name: `Show ${id}`, profiles: [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }] },
    });
    expect(res.status()).toBe(201);
    const stream = (await res.json()) as { id: string; streamKey: string };
    await page.goto(`/streams/${stream.id}`);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(`Show ${id}`);

    await page.getByRole("button", { name: "Rename" }).click();
    const rename = page.getByRole("dialog", { name: "Rename stream" });
    const name = rename.getByLabel("Name");
    await expect(name, "the name field is focused").toBeFocused();
    await expect(name).toHaveValue(`Show ${id}`);
    await shoot(page, "rename-stream");
    await name.fill("   ");
    await rename.getByRole("button", { name: "Save" }).click();
    await expect(rename.getByRole("alert")).toContainText("Give the stream a name");
    await name.fill(`Friday show ${id}`);
    await rename.getByRole("button", { name: "Save" }).click();
    await expect(rename).toBeHidden();
    await expect(heading).toHaveText(`Friday show ${id}`);
    await page.reload();
    await expect(heading, "the new name is saved").toHaveText(`Friday show ${id}`);

    // the card: the innermost box with its heading, its Edit button and its list
    const renditions = page
      .locator("div")
      .filter({ has: page.getByRole("heading", { name: "Renditions" }) })
      .filter({ has: page.getByRole("button", { name: "Edit" }) })
      .filter({ has: page.getByRole("list") })
      .last();
    await renditions.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit renditions" });
    await expect(edit.getByLabel("Custom rendition 1 name"), "the stream's own rendition shows as a custom row").toHaveValue("240p");
    await edit.getByLabel("360p preset").check({ force: true });
    await shoot(page, "edit-renditions");
    await edit.getByRole("button", { name: "Save renditions" }).click();
    await expect(edit).toBeHidden();
    await expect(renditions).toContainText("360p");
    expect(((await (await page.request.get(`/api/stream/${stream.id}`)).json()) as { profiles: { name: string }[] }).profiles.map((p) => p.name)).toEqual([
      "360p",
      "240p",
    ]);

    publisher = publish(rtmpUrl(stream.streamKey));
    await expect(page.getByTestId("stream-status")).toHaveText("Live", { timeout: 60_000 });
    await expect(renditions.getByRole("button", { name: "Edit" }), "renditions are fixed while live").toBeDisabled();

    await page.getByRole("button", { name: "Rotate key" }).click();
    const confirm = page.getByRole("dialog", { name: "Rotate the stream key?" });
    await expect(confirm).toContainText("This stream is live: the broadcast will be cut");
    await shoot(page, "rotate-key");
    await confirm.getByRole("button", { name: "Rotate key" }).click();
    await expect(confirm).toBeHidden();
    const exited = await Promise.race([publisher.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
    expect(exited, "the encoder on the old key is cut").toBe(true);
    await expect(page.getByTestId("stream-status")).toHaveText("Idle", { timeout: 30_000 });
    const after = (await (await page.request.get(`/api/stream/${stream.id}`)).json()) as { streamKey: string };
    expect(after.streamKey).not.toBe(stream.streamKey);
    await page.getByRole("button", { name: "Reveal stream key" }).click();
    await expect(page.getByTestId("stream-key"), "the page shows the new key").toHaveText(after.streamKey);
  } finally {
    await publisher?.stop();
  }
});

test("rename a video", async ({ page }) => {
  await signUp(page);
  const res = await page.request.post("/api/asset/request-upload", { headers: fromDashboard, data: { name: `Clip ${id}` } });
  expect(res.status()).toBe(200);
  const { asset } = (await res.json()) as { asset: { id: string } };
  await page.goto(`/assets/${asset.id}`);
  await page.getByRole("button", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename video" });
  await expect(rename.getByLabel("Name")).toBeFocused();
  await rename.getByLabel("Name").fill(`Best of ${id}`);
  await shoot(page, "rename-video");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Best of ${id}`);
  const saved = (await (await page.request.get(`/api/asset/${asset.id}`)).json()) as { name: string };
  expect(saved.name).toBe(`Best of ${id}`);
});

test("a refresh that fails leaves the page as it was, with a notice, and the next one clears it", async ({ page }) => {
  await signUpByApi(page);
  const res = await page.request.post("/api/stream", { headers: fromDashboard, data: { name: `Steady ${id}` } });
  expect(res.status()).toBe(201);
  const stream = (await res.json()) as { id: string };
  await page.goto(`/streams/${stream.id}`);
  await expect(page.getByRole("heading", { name: `Steady ${id}` })).toBeVisible();

  // A creator is typing a new name when the server stops answering the page's polls.
  await page.getByRole("button", { name: "Rename", exact: true }).click();
  const field = page.getByRole("dialog", { name: "Rename stream" }).getByLabel("Name");
  await field.fill("Half typed");
  const own = new RegExp(`/api/stream/${stream.id}(\\?.*)?$`);
  await page.route(own, (route) =>
    route.request().method() === "GET"
      ? route.fulfill({ status: 503, json: { errors: ["the database is unavailable: try again shortly"] } })
      : route.fallback(),
  );
  const notice = page.getByTestId("stale-notice");
  // A quiet stream is polled every 5 s, and a failed poll is tried twice more (1 s, then 2 s later).
  await expect(notice, "the failed refresh is said").toContainText("the database is unavailable", { timeout: 30_000 });
  await expect(field, "what was typed is still there").toHaveValue("Half typed");
  await expect(page.getByRole("heading", { name: `Steady ${id}` })).toBeVisible();
  await page.keyboard.press("Escape");
  await shoot(page, "stale-notice");
  await page.getByRole("button", { name: "Rename", exact: true }).click();

  await page.unroute(own);
  await expect(notice, "the next refresh clears it").toHaveCount(0, { timeout: 30_000 });
});
