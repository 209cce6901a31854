import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { Livepeer } from "livepeer";
import { QueryParamBreakdownBy as By } from "livepeer/models/operations";
import { type Api, newAccount } from "../test/support/client";
import { publish, type Running, rtmpUrl } from "../test/support/media";
import { makeMedia, putFile, settled, tmpDir } from "../test/support/vod";

/**
 * Real players report their views: several /play pages of a video and of a live stream at once,
 * and what the viewership API then says of them checked against what each page measured of its
 * own video; a starved network shows up as rebuffering, and a video taken down mid-view as an error.
 */

let api: Api & { cookie: string };
let sdk: Livepeer;

test.beforeAll(async () => {
  api = await newAccount();
  sdk = new Livepeer({ apiKey: api.key, serverURL: `${api.base}/api` });
});

/** A ready video of `seconds` (640x360 H.264, AAC). */
async function video(name: string, seconds: number) {
  const file = await makeMedia(tmpDir(), "mp4", { seconds });
  const requested = await api.post("asset/request-upload", { name });
  expect(requested.status).toBe(200);
  expect((await putFile(requested.body.url, file)).status).toBe(200);
  const asset = await settled(api, requested.body.asset.id);
  expect(asset.status.phase).toBe("ready");
  return asset as { id: string; playbackId: string };
}

/**
 * What a page measures of its own video, from the element's events (installed before the
 * player's script runs): the time from its first play intent to its first frame, and the time it
 * spent playing (not paused, not stalled).
 */
async function measured(page: Page) {
  await page.addInitScript(() => {
    const m = { intent: 0, firstFrame: 0, playedMs: 0, since: 0, stalls: 0 };
    (window as unknown as { measured: typeof m }).measured = m;
    const stop = () => {
      if (m.since) m.playedMs += performance.now() - m.since;
      m.since = 0;
    };
    document.addEventListener("play", () => (m.intent ||= performance.now()), true);
    document.addEventListener(
      "playing",
      () => {
        m.firstFrame ||= performance.now();
        m.since = performance.now();
      },
      true,
    );
    for (const type of ["pause", "waiting", "ended", "seeking"]) document.addEventListener(type, stop, true);
    document.addEventListener("waiting", () => m.firstFrame && m.stalls++, true);
  });
}

/** How far a reported time to first frame may be from the page's own: 10%, or 30 ms of a short one (a tick or two of the event loop). */
const closeTo = (ms: number) => Math.max(0.1 * ms, 30);

const readMeasured = (page: Page) =>
  page.evaluate(() => {
    const m = (window as unknown as { measured: { intent: number; firstFrame: number; playedMs: number; since: number; stalls: number } }).measured;
    return { ttffMs: m.firstFrame - m.intent, playedMs: m.playedMs + (m.since ? performance.now() - m.since : 0), stalls: m.stalls };
  });

test("three viewers of a video and one of a live stream: views, watch time and time to first frame as each page measured them", async ({ browser }) => {
  test.setTimeout(240_000);
  const asset = await video("Analytics video", 12);
  const stream = (await api.post("stream", { name: "Analytics live" })).body;
  const publisher: Running = publish(rtmpUrl(stream.streamKey));
  try {
    await expect.poll(async () => (await api.get(`stream/${stream.id}`)).body.isActive, { timeout: 60_000 }).toBe(true);
    const context = await browser.newContext();
    const pages = await Promise.all([0, 1, 2].map(() => context.newPage()));
    for (const page of pages) await measured(page);
    // The three at once: the video plays to its end in each.
    await Promise.all(pages.map((page) => page.goto(`/play/${asset.playbackId}`)));
    for (const page of pages) await expect(page.locator("video")).toHaveJSProperty("ended", true, { timeout: 60_000 });
    const own = await Promise.all(pages.map(readMeasured));

    // A live viewer, still watching: counted now.
    const live = await context.newPage();
    await live.goto(`/play/${stream.playbackId}`);
    await expect.poll(() => live.evaluate(() => document.querySelector("video")?.currentTime ?? 0), { timeout: 60_000 }).toBeGreaterThan(1);
    await expect
      .poll(async () => (await sdk.metrics.getRealtimeViewership(stream.playbackId)).data?.[0]?.viewCount, {
        timeout: 30_000,
        message: "the live viewer counted now",
      })
      .toBe(1);

    // Leaving sends the exit: the video's three views are over.
    for (const page of pages) await page.close();
    // Reported within a minute (the views are rolled up every 10 s, as their beacons come in).
    const watched = own.reduce((n, m) => n + m.playedMs, 0) / 60_000;
    const ttff = own.reduce((n, m) => n + m.ttffMs, 0) / own.length;
    const ofVideo = async () => (await sdk.metrics.getViewership({ playbackId: asset.playbackId })).data![0];
    await expect
      .poll(
        async () => {
          const row = await ofVideo();
          return `${row.viewCount} views, watch time off by ${Math.abs(row.playtimeMins - watched) / watched < 0.1 ? "< 10%" : `${row.playtimeMins} min for ${watched}`}`;
        },
        { timeout: 60_000, message: "the video's views and watch time" },
      )
      .toBe("3 views, watch time off by < 10%");
    const row = await ofVideo();
    expect(Math.abs(row.ttffMs! - ttff), `time to first frame: reported ${row.ttffMs} ms, measured ${ttff} ms`).toBeLessThanOrEqual(closeTo(ttff));
    expect(row.errorRate).toBe(0);
    expect(row.exitsBeforeStart).toBe(0);
    // The browser and device, from the player's own User-Agent.
    const byBrowser = (await sdk.metrics.getViewership({ playbackId: asset.playbackId, breakdownBy: [By.Browser, By.DeviceType] })).data!;
    expect(byBrowser.map((r) => [r.browser, r.deviceType, r.viewCount])).toEqual([["Chrome Headless", "desktop", 3]]);

    // The live view: HLS here (the suite's Chromium offers no WebRTC address), its watch time growing.
    await live.close();
    await expect.poll(async () => (await sdk.metrics.getViewership({ playbackId: stream.playbackId })).data?.[0]?.viewCount, { timeout: 60_000 }).toBe(1);
  } finally {
    publisher.stop();
  }
});

test("a starved network shows as rebuffering, and a video taken down mid-view as an error", async ({ browser }) => {
  test.setTimeout(360_000);
  const asset = await video("Analytics long video", 60);
  const context = await browser.newContext();

  // Rebuffering: the network cut to a trickle once the video plays.
  const starved = await context.newPage();
  await measured(starved);
  await starved.goto(`/play/${asset.playbackId}`);
  await expect.poll(() => starved.evaluate(() => document.querySelector("video")?.currentTime ?? 0), { timeout: 60_000 }).toBeGreaterThan(0.5);
  const cdp = await context.newCDPSession(starved);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 200, downloadThroughput: 8_000, uploadThroughput: 64_000 });
  await expect.poll(async () => (await readMeasured(starved)).stalls, { timeout: 90_000, message: "the video stalls" }).toBeGreaterThan(0);
  // Stalled a while, then the network back.
  await expect.poll(() => starved.evaluate(() => document.querySelector("video")?.readyState ?? 0), { timeout: 10_000 }).toBeLessThan(3);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect.poll(() => starved.evaluate(() => document.querySelector("video")?.readyState ?? 0), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  await starved.close();
  const ofVideo = async () => (await sdk.metrics.getViewership({ playbackId: asset.playbackId })).data![0];
  await expect.poll(async () => (await ofVideo()).rebufferRatio, { timeout: 60_000, message: "rebuffering reported" }).toBeGreaterThan(0);
  const stalled = await ofVideo();
  expect(stalled.viewCount).toBe(1);
  expect(stalled.errorRate).toBe(0);

  // An error: the video taken down while it plays. The network is slow enough that the player
  // has loaded a few seconds ahead, not the whole video (it would then play on to its end).
  const viewer = await context.newPage();
  const slow = await context.newCDPSession(viewer);
  await slow.send("Network.enable");
  await slow.send("Network.emulateNetworkConditions", { offline: false, latency: 50, downloadThroughput: 150_000, uploadThroughput: 150_000 });
  await viewer.goto(`/play/${asset.playbackId}`);
  await expect.poll(() => viewer.evaluate(() => document.querySelector("video")?.currentTime ?? 0), { timeout: 60_000 }).toBeGreaterThan(0.5);
  expect((await api.delete(`asset/${asset.id}?purge=true`)).status).toBe(204);
  // The player plays on through what it had loaded (up to hls.js's 30 s ahead), then hls.js tries
  // each missing segment again for half a minute before it gives up: over 60 s in a CI run.
  await expect(viewer.getByTestId("player")).not.toHaveAttribute("data-status", "ready", { timeout: 150_000 });
  await viewer.close();
  await expect.poll(async () => (await ofVideo()).errorRate, { timeout: 60_000, message: "the error reported" }).toBe(0.5);
});

test("another player sends the same beacons with the guide's snippet: a plain <video> of the video's file is counted as Castline's own player is", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const asset = await video("Analytics snippet video", 8);
  const downloadUrl = (await api.get(`asset/${asset.id}`)).body.downloadUrl as string;
  // The snippet as the guide shows it (lib/api/guides/analytics.md), run as it is.
  const guide = fs.readFileSync(path.join(process.cwd(), "lib/api/guides/analytics.md"), "utf8");
  const snippet = /```js\n([\s\S]*?)```/.exec(guide)![1];
  await measured(page);
  // A page of the site's own with a plain <video> of the file (served here by the test: Chromium
  // keeps pages it cannot place from reaching loopback addresses, so it is on the app's origin).
  const watch = new URL("/snippet-test/watch", downloadUrl).href;
  await page.route(watch, (route) =>
    route.fulfill({ contentType: "text/html", body: `<!doctype html><video muted playsinline src="${downloadUrl}"></video>` }),
  );
  await page.goto(watch);
  await page.evaluate(
    `${snippet}; castlineViews(${JSON.stringify(new URL(downloadUrl).origin)}, ${JSON.stringify(asset.playbackId)}, document.querySelector("video")); document.querySelector("video").play();`,
  );
  await expect(page.locator("video")).toHaveJSProperty("ended", true, { timeout: 60_000 });
  const own = await readMeasured(page);
  await page.close({ runBeforeUnload: true });
  const ofVideo = async () => (await sdk.metrics.getViewership({ playbackId: asset.playbackId, breakdownBy: [By.Browser] })).data![0];
  await expect
    .poll(
      async () => {
        const row = await ofVideo();
        return (
          row &&
          `${row.viewCount} ${row.browser} view, watch time off by ${Math.abs(row.playtimeMins * 60_000 - own.playedMs) / own.playedMs < 0.1 ? "< 10%" : row.playtimeMins * 60_000}`
        );
      },
      { timeout: 60_000, message: `the snippet's view (${own.playedMs} ms watched)` },
    )
    .toBe("1 Chrome Headless view, watch time off by < 10%");
  const { ttffMs } = await ofVideo();
  expect(Math.abs(ttffMs! - own.ttffMs), `time to first frame: reported ${ttffMs} ms, measured ${own.ttffMs} ms`).toBeLessThanOrEqual(closeTo(own.ttffMs));
});
