import { expect, test } from "@playwright/test";
import { fromDashboard, signUp, unique } from "./accounts";
import { makeMedia, putFile, tmpDir } from "../test/support/vod";

/**
 * A creator deletes a video from its page: the dialog says it is taken down, and from then on
 * its player page, playlists, download and playback info are gone for viewers.
 */
for (const { width, height } of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`deleting a video from its page at ${width} px takes it down everywhere`, async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    await signUp(page, { name: "Taking Down" });
    const name = `Taken down ${unique()}`;
    const requested = await (await page.request.post("/api/asset/request-upload", { headers: fromDashboard, data: { name } })).json();
    expect((await putFile(requested.url, await makeMedia(tmpDir(), "mp4", { seconds: 4, size: "320x180" }))).status).toBe(200);
    const { id, playbackId } = requested.asset as { id: string; playbackId: string };
    await expect.poll(async () => (await (await page.request.get(`/api/asset/${id}`)).json()).status.phase, { timeout: 90_000 }).toBe("ready");

    const viewerPaths = [`/play/${playbackId}`, `/asset/${playbackId}/hls/index.m3u8`, `/asset/${playbackId}/video`, `/api/playback/${playbackId}`];
    for (const p of viewerPaths) expect((await request.get(p)).status(), `${p} before`).toBe(200);

    await page.goto(`/assets/${id}`);
    await page.getByRole("button", { name: "Delete video" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this video?" });
    await expect(dialog).toContainText("will be taken down at once");
    await expect(dialog).toContainText("This cannot be undone.");
    await page.screenshot({ path: test.info().outputPath(`takedown-dialog-${width}.png`) });
    await dialog.getByRole("button", { name: "Delete video" }).click();
    await expect(page).toHaveURL(/\/assets$/);
    await expect(page.getByText(name)).toHaveCount(0);

    // Viewers, who never had the dashboard: every playback path is gone.
    for (const p of viewerPaths) expect((await request.get(p)).status(), `${p} after`).toBe(404);
  });
}
