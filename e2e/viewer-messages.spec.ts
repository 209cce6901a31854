import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { fromDashboard, signUp, unique } from "./accounts";

/**
 * What a viewer's player says about a private live stream whose site checks access with a
 * webhook: that it is a stream, that the site's check is unavailable when its receiver fails
 * (and it plays by itself once the check works again), refused when the receiver says no, and
 * never that the link expired, which it did not.
 */
test("a private stream's player says what happened: access check unavailable, refused, private; never expired", async ({ page, browser }) => {
  test.setTimeout(120_000);
  let answer = 500;
  const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(answer).end()));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    await signUp(page);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/access`;
    const hook = await (
      await page.request.post("/api/webhook", { headers: fromDashboard, data: { name: "access", url, events: ["playback.accessControl"] } })
    ).json();
    const stream = await (
      await page.request.post("/api/stream", {
        headers: fromDashboard,
        data: { name: `Members ${unique()}`, playbackPolicy: { type: "webhook", webhookId: hook.id } },
      })
    ).json();

    const viewer = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    const player = viewer.getByTestId("player");
    await viewer.goto(`/play/${stream.playbackId}?accessKey=member-1`);
    await expect(player).toHaveAttribute("data-status", "unavailable");
    await expect(player.getByText("Access check unavailable")).toBeVisible();
    await expect(player.getByText(/could not confirm your access just now\. Try again later/)).toBeVisible();
    await expect(player.getByText(/expired|refused|can’t watch/i)).toHaveCount(0);
    await viewer.screenshot({ path: test.info().outputPath("access-check-unavailable-390.png") });

    // The site's check works again: the player, asking again by itself, is let in (offline: nothing is broadcast).
    answer = 200;
    await expect(player).toHaveAttribute("data-status", "offline", { timeout: 30_000 });
    await expect(player.getByText("This stream is offline")).toBeVisible();

    answer = 403;
    await viewer.goto(`/play/${stream.playbackId}?accessKey=not-a-member`);
    await expect(player).toHaveAttribute("data-status", "refused");
    await expect(player.getByText("You can’t watch this stream")).toBeVisible();
    await expect(player.getByText(/expired/i)).toHaveCount(0);

    await viewer.setViewportSize({ width: 1440, height: 900 });
    await viewer.goto(`/play/${stream.playbackId}`);
    await expect(player).toHaveAttribute("data-status", "private");
    await expect(player.getByText("This stream is private")).toBeVisible();
    await viewer.screenshot({ path: test.info().outputPath("stream-private-1440.png") });

    // Every check the viewer's player caused is in the webhook's delivery log.
    const logged = async () => {
      const log: { event: string; response?: { status: number } }[] = await (await page.request.get(`/api/webhook/${hook.id}/log`)).json();
      return log.map((d) => `${d.event} ${d.response?.status}`);
    };
    await expect.poll(logged).toEqual(expect.arrayContaining(["playback.accessControl 500", "playback.accessControl 200", "playback.accessControl 403"]));
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
});
