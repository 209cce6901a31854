import fs from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { publish, rtmpUrl, type Running } from "../test/support/media";
import { fromDashboard, signUp, unique } from "./accounts";

/**
 * A creator clips the last 30 s of a broadcast whose media reaches the server at half
 * real time (an overloaded encoder), so the stream runs further and further behind the
 * clock: the clip is the stream's last 30 s all the same. A clip asked past what the
 * stream had reached fails; once the stream is past it, Retry makes it. At 1440 and 390 px.
 *
 * The minute of broadcast that the last 30 s needs is spent before the page opens (the
 * browser would only poll through it), and the failed clip is asked at its start: it fails
 * and the stream gets past its range while the 30 s build up.
 */

const SHOTS = "/tmp/shots-clips";
const DESKTOP = { width: 1440, height: 1000 };
const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

interface Kept {
  startTime: number;
  endTime: number;
}

async function clippable(request: APIRequestContext, sessionId: string): Promise<Kept | undefined> {
  return (await (await request.get(`/api/session/${sessionId}`)).json()).clippable;
}

test("clip the last 30 s of a stream running behind the clock, and retry a failed clip", async ({ page }) => {
  test.setTimeout(420_000);
  let publisher: Running | undefined;
  try {
    await page.setViewportSize(DESKTOP);
    await signUp(page);
    const name = `Slow studio ${unique()}`;
    const created = await page.request.post("/api/stream", { headers: fromDashboard, data: { name } });
    expect(created.status()).toBe(201);
    const stream = (await created.json()) as { id: string; streamKey: string; playbackId: string };

    publisher = publish(rtmpUrl(stream.streamKey), { speed: 0.5 });
    let session = { id: "" };
    await expect
      .poll(
        async () => {
          [session] = (await (await page.request.get(`/api/stream/${stream.id}/sessions`)).json()) as { id: string }[];
          return session && (await clippable(page.request, session.id))?.endTime;
        },
        { timeout: 60_000, intervals: [1000], message: "the broadcast's first media is stored" },
      )
      .toBeGreaterThan(0);

    // Ahead of the stream by more than it gets in the time a live clip waits for its media
    // (16 s, 8 s of media at half speed), well within what a clip may ask past the live edge.
    const missed = "Missed moment";
    const edge = (await clippable(page.request, session.id))!.endTime;
    const range: Kept = { startTime: edge + 15_000, endTime: edge + 16_000 };
    const asked = await page.request.post("/api/clip", {
      headers: fromDashboard,
      data: { playbackId: stream.playbackId, sessionId: session.id, name: missed, ...range },
    });
    expect(asked.status(), await asked.text()).toBe(200);

    await expect
      .poll(
        async () => {
          const kept = await clippable(page.request, session.id);
          return kept ? Math.min(kept.endTime - kept.startTime, Date.now() - kept.endTime) : 0;
        },
        { timeout: 180_000, intervals: [1000], message: "32 s of media, over 30 s behind the clock" },
      )
      .toBeGreaterThan(32_000);

    await page.goto(`/streams/${stream.id}`);
    await expect(page.getByTestId("stream-status")).toHaveText("Live", { timeout: 60_000 });
    const card = page.locator("section").filter({ has: page.getByRole("heading", { name: "Clips", exact: true }) });
    const clips = card.getByRole("list", { name: "Clips" });

    await test.step("a clip of media the stream had not reached fails, and says so", async () => {
      const row = clips.getByTestId("clip-row").filter({ hasText: missed });
      await expect(row).toContainText("failed", { timeout: 90_000 });
      await expect(row).toContainText("had not reached this range");
      await expect(row.getByRole("button", { name: `Retry ${missed}` })).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await shot(page, "clips-failed-1440");
    });

    await test.step("the last 30 s, though the stream is over 30 s behind the clock", async () => {
      await page.getByRole("button", { name: "Clip the last 30 s" }).click();
      const row = clips.getByTestId("clip-row").filter({ hasText: `Clip of ${name}` });
      await expect(row).toBeVisible();
      await expect(row).toContainText("ready", { timeout: 120_000 });
      await expect(card.getByRole("alert")).toHaveCount(0);
      const [clip] = (await (await page.request.get(`/api/stream/${stream.id}/clips`)).json()) as { name: string; videoSpec: { duration: number } }[];
      expect(clip.name).toBe(`Clip of ${name}`);
      expect(Math.abs(clip.videoSpec.duration - 30), `the clip lasts ${clip.videoSpec.duration} s`).toBeLessThan(0.1);
    });

    await test.step("at 390 px, once the stream is past it, Retry makes the same clip", async () => {
      await expect
        .poll(async () => (await clippable(page.request, session.id))!.endTime, { timeout: 90_000, intervals: [1000], message: "the stream is past the range" })
        .toBeGreaterThan(range.endTime);
      await page.setViewportSize(PHONE);
      const row = clips.getByTestId("clip-row").filter({ hasText: missed });
      const retry = row.getByRole("button", { name: `Retry ${missed}` });
      await retry.scrollIntoViewIfNeeded();
      await expect(retry).toBeInViewport();
      await shot(page, "clips-failed-390");
      await retry.click();
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("ready", { timeout: 120_000 });
      await expect(row.getByRole("button", { name: /Retry/ })).toHaveCount(0);
      const listed = (await (await page.request.get(`/api/stream/${stream.id}/clips`)).json()) as { id: string; name: string }[];
      const again = listed.filter((c) => c.name === missed);
      expect(again, "the failed clip was replaced by the new one").toHaveLength(1);
      const filters = encodeURIComponent(
        JSON.stringify([
          { id: "type", value: "clip" },
          { id: "outputAssetId", value: again[0].id },
        ]),
      );
      const [task] = (await (await page.request.get(`/api/task?filters=${filters}`)).json()) as { params: { clip: { clipStrategy: Kept } } }[];
      expect(task.params.clip.clipStrategy).toMatchObject({ ...range });
      await row.scrollIntoViewIfNeeded();
      await shot(page, "clips-retried-390");
    });
  } finally {
    await publisher?.stop();
  }
});
