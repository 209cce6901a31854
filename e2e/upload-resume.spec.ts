// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { fromDashboard, signUp, unique } from "./accounts";
import { shoot } from "./support/screens";
import { scratchFile } from "./support/video";

/**
 * A creator uploads a large video (resumable, over tus) on a slow uplink and reloads the
 * page half-way: the upload comes back, and choosing the same file again continues it from
 * the server's offset into the same asset, which becomes ready. A video left waiting by a
 * reload shows, on its own page, how to continue it (the same) or delete it. At 1440 and 390 px.
 */

const DESKTOP = { width: 1440, height: 1000 };
const PHONE = { width: 390, height: 844 };
const TUS = "/api/asset/upload/tus/";

/**
 * Just over the 100 MiB above which uploads are resumable: 2.5 s of H.264 + AAC at 320x180,
 * then a 'free' box of zeros (ISO BMFF padding that players and ffmpeg skip). Only its size
 * matters to the upload; a small picture keeps what the app makes of the video cheap (a
 * remux and one 180p rendition, not a 720p ladder of noise) for each of the two assets.
 */
function makeLargeVideo(): string {
  const file = scratchFile(`long-take-${unique()}.mp4`);
  // prettier-ignore
  execFileSync(process.env.FFMPEG_PATH ?? "ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=2.5",
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2.5",
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30",
    "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
  ]);
  const size = 101 * 1024 * 1024;
  const padding = size - fs.statSync(file).size;
  const box = Buffer.alloc(8);
  box.writeUInt32BE(padding);
  box.write("free", 4, "latin1");
  fs.appendFileSync(file, box);
  fs.truncateSync(file, size); // the box's body: zeros
  return file;
}

test("a resumable upload survives a reload and continues into the same asset; an abandoned video's page resumes or deletes it", async ({ page, context }) => {
  test.setTimeout(420_000);
  const file = makeLargeVideo();
  const name = path.basename(file);
  // Leaving a page with an upload going asks first: this user means it.
  page.on("dialog", (dialog) => void dialog.accept());
  const offsets: number[] = [];
  let uploadsRequested = 0;
  page.on("request", (req) => {
    if (req.method() === "PATCH" && req.url().includes(TUS)) offsets.push(Number(req.headers()["upload-offset"]));
    if (req.method() === "POST" && req.url().endsWith("/api/asset/request-upload")) uploadsRequested++;
  });
  const cdp = await context.newCDPSession(page);
  const uplink = (bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  const assetsNamed = async () => ((await (await page.request.get("/api/asset")).json()) as { id: string; name: string }[]).filter((a) => a.name === name);
  /** The upload's row (the one in `state`, when the file has two: a finished one and a new one). */
  const rowOf = (page: Page, state?: string) => page.locator(`[data-testid="upload-row"]${state ? `[data-state="${state}"]` : ""}`).filter({ hasText: name });
  const sentPercent = async (page: Page, state?: string) => Number(await rowOf(page, state).getByRole("progressbar").getAttribute("aria-valuenow"));

  await page.setViewportSize(DESKTOP);
  await signUp(page);
  await uplink(4_000_000);

  let assetId = "";
  await test.step("reloaded at a quarter, the upload continues from the server's offset when the file is chosen again", async () => {
    await page.goto("/assets");
    await page.getByTestId("asset-file-input").setInputFiles(file);
    const row = page.getByTestId("upload-row").filter({ hasText: name });
    await expect(row).toContainText("resumable upload");
    await expect.poll(() => sentPercent(page), { timeout: 60_000, message: "a quarter sent" }).toBeGreaterThan(25);
    [{ id: assetId }] = await assetsNamed();

    await page.reload();
    await expect(row).toHaveAttribute("data-state", "interrupted", { timeout: 30_000 });
    await expect(row).toContainText("choose the file again to continue");
    const stoppedAt = await sentPercent(page);
    expect(stoppedAt, "the row shows what was sent").toBeGreaterThan(20);
    await row.scrollIntoViewIfNeeded();
    await shoot(page, "upload-interrupted-1440");

    const patchesBefore = offsets.length;
    await page.getByTestId("asset-file-input").setInputFiles(file);
    await expect(row).toHaveAttribute("data-state", "uploading");
    await expect.poll(() => offsets.length, { message: "the upload goes on" }).toBeGreaterThan(patchesBefore);
    expect(offsets[patchesBefore], "it continues at its offset, not from 0").toBeGreaterThan(0);
    expect(await sentPercent(page), "the bar starts where it stopped").toBeGreaterThanOrEqual(stoppedAt - 5);
    await uplink(-1);
    await expect(row).toHaveAttribute("data-state", "uploaded", { timeout: 120_000 });
    expect(uploadsRequested, "no second asset was asked for").toBe(1);
    expect((await assetsNamed()).map((a) => a.id)).toEqual([assetId]);
    await page.goto(`/assets/${assetId}`);
    await expect(page.getByTestId("asset-status")).toContainText("ready", { timeout: 120_000 });
  });

  await test.step("at 390 px, an interrupted video's page continues its upload into it", async () => {
    await page.setViewportSize(PHONE);
    await uplink(4_000_000);
    await page.goto("/assets");
    // A finished upload the tab still lists (the page was left before its recovery noted the end)
    // shows as finished, never as stopped and waiting for its file.
    await expect(rowOf(page, "interrupted"), "the first upload is not shown as stopped").toHaveCount(0);
    // The same file once more, now that the first finished: a new video.
    await page.getByTestId("asset-file-input").setInputFiles(file);
    await expect.poll(() => sentPercent(page, "uploading"), { timeout: 60_000, message: "a quarter sent" }).toBeGreaterThan(25);
    const second = (await assetsNamed()).find((a) => a.id !== assetId)!;
    expect(second, "a second video").toBeTruthy();

    await page.goto(`/assets/${second.id}`);
    const card = page.locator("section").filter({ has: page.getByRole("heading", { name: "Upload", exact: true }) });
    await expect(card).toContainText("stopped at", { timeout: 30_000 });
    await expect(card.getByRole("button", { name: /Delete this video/ })).toBeVisible();
    const resume = card.getByRole("button", { name: new RegExp(`Choose the file to continue: ${name}`) });
    await resume.scrollIntoViewIfNeeded();
    await expect(resume).toBeInViewport();
    await shoot(page, "upload-recovery-390");

    const patchesBefore = offsets.length;
    await card.getByTestId("resume-file-input").setInputFiles(file);
    await expect.poll(() => offsets.length, { message: "the upload goes on" }).toBeGreaterThan(patchesBefore);
    expect(offsets[patchesBefore], "it continues at its offset, not from 0").toBeGreaterThan(0);
    await uplink(-1);
    await expect(page.getByTestId("asset-status")).toContainText("ready", { timeout: 180_000 });
    expect(uploadsRequested, "the page continued the same video").toBe(2);
    await shoot(page, "upload-resumed-390");
  });

  await test.step("a waiting video no browser is uploading to is deleted from its page", async () => {
    const requested = await page.request.post("/api/asset/request-upload", { headers: fromDashboard, data: { name: `Never sent ${unique()}` } });
    const { asset } = (await requested.json()) as { asset: { id: string } };
    await page.goto(`/assets/${asset.id}`);
    const card = page.locator("section").filter({ has: page.getByRole("heading", { name: "Upload", exact: true }) });
    await expect(card).toContainText("No upload to this video is going on in this browser");
    await shoot(page, "upload-abandoned-390");
    await page.setViewportSize(DESKTOP);
    await shoot(page, "upload-abandoned-1440");
    await card.getByRole("button", { name: /Delete this video/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete video" }).click();
    await expect(page).toHaveURL(/\/assets$/);
    expect((await page.request.get(`/api/asset/${asset.id}`)).status()).toBe(404);
  });
});
