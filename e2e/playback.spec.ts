import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator } from "@playwright/test";
import { makeBroadcastClip, publishFile, rtmpUrl, type Running } from "../test/support/media";
import { tmpDir } from "../test/support/vod";
import { fromDashboard, signUpByApi } from "./accounts";

/**
 * A viewer watches a live stream: a creator makes a stream, ffmpeg broadcasts a test
 * pattern to the RTMP ingest, and the player (its own page, embedded in another site, and
 * the dashboard's preview) really plays it: the video's clock has to move.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const email = `viewer-${unique}@example.com`;
const streamName = `E2E live ${unique}`;

const currentTime = (video: Locator) => video.evaluate((v: HTMLVideoElement) => v.currentTime);

/** Playing means the clock passes a second and keeps going, not that a first frame showed. */
async function expectPlaying(video: Locator) {
  await expect(video).toHaveJSProperty("muted", true);
  await expect.poll(() => currentTime(video), { timeout: 30_000, message: "the video's currentTime should pass 1 s" }).toBeGreaterThan(1);
  const at = await currentTime(video);
  await expect.poll(() => currentTime(video), { timeout: 60_000, message: "the video should keep playing" }).toBeGreaterThan(at + 0.5);
}

test("a live broadcast plays in the player, embedded on another site, and in the dashboard preview", async ({ page, browser, baseURL }) => {
  let stream = { id: "", streamKey: "", playbackId: "" };
  let publisher: Running | undefined;
  // A 640x360 test pattern with a tone (2 s keyframes), encoded once and sent in real time as
  // it is, looped: an encoder that costs nearly nothing while the test watches.
  const clip = `${tmpDir()}/broadcast.flv`;
  await makeBroadcastClip(clip);

  try {
    await test.step("sign up and create a stream with one rendition", async () => {
      // Through the API (auth.spec.ts signs up through the form); page.request carries the session cookie.
      await signUpByApi(page, { email, name: "E2E Broadcaster" });
      const res = await page.request.post("/api/stream", {
        headers: fromDashboard,
        data: { name: streamName, profiles: [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }] },
      });
      expect(res.status(), "POST /api/stream").toBe(201);
      stream = await res.json();
      expect(stream.playbackId).toBeTruthy();
    });

    const video = page.getByTestId("player-video");

    await test.step("before the broadcast, the player says the stream is offline", async () => {
      await page.goto(`/play/${stream.playbackId}`);
      await expect(page.getByText("This stream is offline")).toBeVisible();
      await expect(page.getByTestId("live-badge")).toHaveCount(0);
    });

    await test.step("once ffmpeg publishes, the open player starts by itself: LIVE, muted, playing", async () => {
      // Ten minutes at most; stopped below.
      publisher = publishFile(rtmpUrl(stream.streamKey), clip, 600);
      await expect(page.getByTestId("live-badge")).toBeVisible({ timeout: 45_000 });
      await expect(page.getByTestId("live-badge")).toHaveText("LIVE");
      await expect(video).toHaveAttribute("playsinline", "");
      await expectPlaying(video);
      await expect(page.getByText("This stream is offline")).toHaveCount(0);
      // Offered WebRTC (the playback info lists it), this browser has no UDP path (playwright.config.ts): HLS at once, and the badge says so.
      await expect(page.getByTestId("playback-mode")).toHaveAttribute("data-mode", "hls");
      await expect(page.getByTestId("playback-mode")).toHaveText(/^HLS( · \d+(\.\d)? s)?$/);
    });

    await test.step("the quality menu offers Auto, the source and the rendition, and switches", async () => {
      await page.getByTestId("player").hover();
      await page.getByRole("button", { name: /^Quality/ }).click();
      const menu = page.getByRole("menu", { name: "Quality" });
      await expect(menu.getByRole("menuitemradio")).toHaveText([/^Auto/, /^Source/, /^240p/]);
      await expect(menu.getByRole("menuitemradio", { name: /^Auto/ })).toHaveAttribute("aria-checked", "true");
      await menu.getByRole("menuitemradio", { name: /^240p/ }).click();
      await expect(menu).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Quality: 240p" })).toBeVisible();
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 60_000 }).toBe(240);
      await expectPlaying(video);

      // Unmuting is the viewer's choice.
      await page.getByRole("button", { name: "Unmute" }).first().click();
      await expect(video).toHaveJSProperty("muted", false);
    });

    await test.step("paused, the viewer falls behind; the LIVE badge offers to catch up and jumps to the live edge", async () => {
      const badge = page.getByTestId("live-badge");
      await expect(badge).toHaveAccessibleName("Live");
      await expect(badge).toBeDisabled();
      await page.getByTestId("player").hover();
      await page.getByRole("button", { name: "Pause" }).first().click();
      const pausedAt = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
      await expect(badge).toHaveAccessibleName("Go to live");
      // Fall behind: the player keeps reading the live playlist while paused, so the end of what
      // it can seek to is the live edge. Going live lands the player's latency behind that edge,
      // as far behind it as the player was when paused: once the edge has moved on 10 s, going
      // live lands about 10 s past the pause, more than the 5 s checked below. (6 s was too
      // little: the edge moves a segment at a time, and going live landed 4.1 s past the pause.)
      const seekableEnd = () => video.evaluate((v: HTMLVideoElement) => (v.seekable.length ? v.seekable.end(v.seekable.length - 1) : 0));
      const edgeAtPause = await seekableEnd();
      await expect.poll(seekableEnd, { timeout: 60_000, message: "the live edge moves on while paused" }).toBeGreaterThan(edgeAtPause + 10);
      await badge.click();
      await expect(video).toHaveJSProperty("paused", false);
      await expect(badge).toHaveAccessibleName("Live", { timeout: 60_000 });
      expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime), "caught up past the pause").toBeGreaterThan(pausedAt + 5);
    });

    await test.step("embedded in an iframe on another site, without cookies, it plays", async () => {
      // A real second origin on loopback: Chromium refuses a public page framing a local one.
      const blog = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          `<!doctype html><h1>My blog</h1><iframe src="${baseURL}/play/${stream.playbackId}" width="640" height="360" style="border:0" allow="autoplay; fullscreen"></iframe>`,
        );
      });
      await new Promise<void>((resolve) => blog.listen(0, "127.0.0.1", resolve));
      const site = await browser.newContext();
      try {
        const host = await site.newPage();
        await host.goto(`http://127.0.0.1:${(blog.address() as AddressInfo).port}/`);
        const player = host.frameLocator("iframe");
        await expect(player.getByTestId("live-badge")).toBeVisible({ timeout: 60_000 });
        await expectPlaying(player.getByTestId("player-video"));
        expect(await site.cookies(), "the player should not need or set cookies").toEqual([]);
      } finally {
        await site.close();
        blog.close();
      }
    });

    await test.step("the dashboard shows a playing preview and the ingest health", async () => {
      const dashboard = await page.context().newPage();
      await dashboard.goto(`/streams/${stream.id}`);
      await expect(dashboard.getByRole("heading", { level: 1, name: streamName })).toBeVisible();
      const preview = dashboard.getByTestId("live-preview");
      await expectPlaying(preview.getByTestId("player-video"));
      await expect(preview.getByTestId("live-badge")).toBeVisible();

      await expect(dashboard.getByRole("heading", { name: "Ingest health" })).toBeVisible();
      await expect(dashboard.getByTestId("health-last-seen")).not.toHaveText("Never");
      // Health is optional in the API; whatever it reports, the card shows.
      await expect(async () => {
        const res = await dashboard.request.get(`/api/stream/${stream.id}`);
        const { health } = (await res.json()) as { health?: { bitrateKbps?: number; fps?: number } };
        expect(health?.bitrateKbps, "the media node reports a bitrate").toBeGreaterThan(0);
      }).toPass({ timeout: 60_000 });
      await expect(dashboard.getByTestId("health-bitrate")).toHaveText(/^[\d,]+\s*kbps$/, { timeout: 60_000 });
      await expect(dashboard.getByTestId("health-fps")).toHaveText(/^(\d+(\.\d)?\s*fps|—)$/);
      await dashboard.close();
    });

    await test.step("when the broadcast stops, the player goes back to offline", async () => {
      await publisher?.stop();
      await expect(page.getByText("This stream is offline")).toBeVisible({ timeout: 45_000 });
      await expect(page.getByTestId("live-badge")).toHaveCount(0);
    });
  } finally {
    if (publisher) {
      await publisher.stop();
      await test.info().attach("ffmpeg.log", { body: publisher.stderr(), contentType: "text/plain" });
    }
  }
});
