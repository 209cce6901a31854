import { spawn } from "node:child_process";
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { freePort } from "@/lib/net/free-port";
import { publish, rtmpUrl, type Running } from "../test/support/media";
import { fromDashboard } from "./accounts";

/**
 * A creator multistreams to two platforms, one of which refuses the connection: the stream
 * page shows each target's push live (connected; the error, retrying in N s, counting down),
 * and the targets page shows where each target sends (host only) and which streams use it.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const SHOTS = "/tmp/shots-multistream";
const SECRETS = ["yt-secret-key-e2e-4kQ", "tw-secret-key-e2e-9Lm"];

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test("the stream page shows each target's live state; the targets page shows host and streams", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const goodPort = await freePort();
  const goodUrl = `rtmp://127.0.0.1:${goodPort}/live2/${SECRETS[0]}`;
  // The reachable platform: ffmpeg listening on the target's URL.
  const ingest = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-listen", "1", "-i", goodUrl, "-c", "copy", "-f", "null", "-"], { stdio: "ignore" });
  let publisher: Running | undefined;
  try {
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(`multistream-${unique}@example.com`);
    await page.getByLabel("Password").fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/streams$/);

    const post = async (path: string, data: unknown) => {
      const res = await page.request.post(path, { headers: fromDashboard, data });
      expect(res.status(), path).toBe(201);
      return (await res.json()) as { id: string; streamKey: string };
    };
    const youtube = await post("/api/multistream/target", { url: goodUrl, name: "YouTube" });
    const twitch = await post("/api/multistream/target", { url: `rtmp://127.0.0.1:${await freePort()}/app/${SECRETS[1]}`, name: "Twitch" });
    const name = `Simulcast ${unique}`;
    const stream = await post("/api/stream", {
      name,
      profiles: [{ name: "240p", width: 426, height: 240, bitrate: 400_000, fps: 30 }],
      multistream: {
        targets: [
          { id: youtube.id, profile: "source" },
          { id: twitch.id, profile: "240p" },
        ],
      },
    });

    await page.goto(`/streams/${stream.id}`);
    const attached = page.getByRole("list", { name: "Attached targets" });
    const yt = attached.getByRole("listitem", { name: "YouTube" });
    const tw = attached.getByRole("listitem", { name: "Twitch" });
    await expect(yt).toContainText(`127.0.0.1:${goodPort}`);
    await expect(yt.getByTestId("push-state"), "no push state while idle").toHaveCount(0);

    publisher = publish(rtmpUrl(stream.streamKey));
    await expect(page.getByTestId("stream-status")).toHaveText("Live", { timeout: 60_000 });
    await expect(yt.getByTestId("push-state")).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
    await expect(yt.getByTestId("push-state")).toContainText("Connected");
    const twState = tw.getByTestId("push-state");
    await expect(twState).toContainText(/retrying in \d+ s/, { timeout: 30_000 });
    await expect(twState).toHaveAttribute("data-state", "retrying");
    await expect(twState).toContainText(/Connection refused/i);
    // The countdown moves between polls.
    const first = Number(/retrying in (\d+) s/.exec((await twState.textContent()) ?? "")?.[1]);
    if (first >= 3) await expect(twState).not.toContainText(`retrying in ${first} s`, { timeout: 2_500 });
    for (const secret of SECRETS) await expect(page.locator("body")).not.toContainText(secret);
    await attached.scrollIntoViewIfNeeded();
    await shoot(page, "stream-live-1440");
    await attached.screenshot({ path: `${SHOTS}/stream-targets-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await attached.scrollIntoViewIfNeeded();
    await expect(tw.getByTestId("push-state")).toBeInViewport();
    await shoot(page, "stream-live-390");
    await attached.screenshot({ path: `${SHOTS}/stream-targets-390.png` });

    // The targets page: host (never the key) and the streams using each target, linked.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/targets");
    const targets = page.getByRole("list", { name: "Multistream targets" });
    const row = targets.getByRole("listitem", { name: "Twitch" });
    await expect(row.getByTestId("target-host")).toHaveText(/^127\.0\.0\.1:\d+$/);
    await expect(targets.getByRole("listitem", { name: "YouTube" }).getByTestId("target-host")).toHaveText(`127.0.0.1:${goodPort}`);
    await expect(row.getByRole("link", { name })).toHaveAttribute("href", `/streams/${stream.id}`);
    for (const secret of SECRETS) await expect(page.locator("body")).not.toContainText(secret);
    await shoot(page, "targets-1440");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row.getByRole("link", { name })).toBeInViewport();
    await shoot(page, "targets-390");
    await row.getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`/streams/${stream.id}$`));
    await expect(page.getByRole("heading", { name })).toBeVisible();
  } finally {
    await publisher?.stop();
    ingest.kill("SIGKILL");
  }
});
