import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator } from "@playwright/test";
import { fromDashboard } from "./accounts";

/**
 * A viewer watches a live stream: a creator makes a stream, ffmpeg broadcasts a test
 * pattern to the RTMP ingest, and the player (its own page, embedded in another site, and
 * the dashboard's preview) really plays it: the video's clock has to move.
 */

const rtmpPort = process.env.CASTLINE_RTMP_PORT;
if (!rtmpPort) throw new Error("CASTLINE_RTMP_PORT is not set: run the browser tests with `npm test`");

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const email = `viewer-${unique}@example.com`;
const password = "correct-horse-battery";
const streamName = `E2E live ${unique}`;

/** A 640x360 test pattern with a tone, sent in real time like an encoder would. */
function publish(streamKey: string): { ffmpeg: ChildProcess; log: () => string } {
  const ffmpeg = spawn(
    process.env.FFMPEG_PATH ?? "ffmpeg",
    // prettier-ignore
    [
      "-hide_banner", "-loglevel", "warning",
      "-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30",
      "-f", "lavfi", "-i", "sine=frequency=440",
      "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", "60",
      "-c:a", "aac",
      "-f", "flv", `rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  ffmpeg.stderr?.on("data", (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-8_000)));
  return { ffmpeg, log: () => log };
}

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
  let publisher: ReturnType<typeof publish> | undefined;

  try {
    await test.step("sign up and create a stream with one rendition", async () => {
      await page.goto("/sign-up");
      await page.getByLabel("Name").fill("E2E Broadcaster");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page).toHaveURL(/\/streams$/);

      // page.request carries the session cookie the sign-up just set.
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
      publisher = publish(stream.streamKey);
      await expect(page.getByTestId("live-badge")).toBeVisible({ timeout: 45_000 });
      await expect(page.getByTestId("live-badge")).toHaveText("LIVE");
      await expect(video).toHaveAttribute("playsinline", "");
      await expectPlaying(video);
      await expect(page.getByText("This stream is offline")).toHaveCount(0);
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
      await page.waitForTimeout(10_000);
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
      publisher?.ffmpeg.kill("SIGINT");
      await expect(page.getByText("This stream is offline")).toBeVisible({ timeout: 45_000 });
      await expect(page.getByTestId("live-badge")).toHaveCount(0);
    });
  } finally {
    if (publisher) {
      publisher.ffmpeg.kill("SIGKILL");
      await test.info().attach("ffmpeg.log", { body: publisher.log(), contentType: "text/plain" });
    }
  }
});
