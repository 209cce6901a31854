import { expect, test } from "@playwright/test";
import { makeAdmin } from "../test/support/cli";
import { signUp } from "./accounts";

/**
 * The media nodes are the deployment's machines: an operator (an account given the admin
 * role with the CLI) sees them in the dashboard; other accounts see neither the link nor the page.
 */
test("an account made an operator with the CLI sees the media nodes page; before, neither link nor page", async ({ page, baseURL }) => {
  const email = await signUp(page);
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link", { name: "Streams" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Media nodes" })).toHaveCount(0);
  const refused = await page.goto("/nodes");
  expect(refused?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Media nodes" })).toHaveCount(0);

  await makeAdmin(email);
  await page.goto("/streams");
  await main.getByRole("link", { name: "Media nodes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Media nodes" })).toBeVisible();
  const rtmpPort = Number(process.env.CASTLINE_RTMP_PORT ?? 1935);
  const ingestUrl = `rtmp://${new URL(baseURL!).hostname}:${rtmpPort}/live`;

  // Other tests may have registered nodes of their own: find this app's by the URL it is reached at.
  const own = page
    .getByRole("list", { name: "Media nodes" })
    .getByRole("listitem")
    .filter({ has: page.getByText(ingestUrl, { exact: true }) })
    .filter({ hasText: /healthy|overloaded/i });
  await expect(own.first()).toBeVisible();
  await expect(own.first().getByRole("progressbar", { name: /^CPU load of / })).toBeVisible();
  // It heartbeats every 2 s and the page asks every 5 s.
  await expect(own.first().getByTestId("node-heartbeat")).toHaveText(/^(\d+ seconds? ago|now)$/);

  const nodes = (await (await page.request.get("/api/media-node")).json()) as { state: string; ingestUrl: string | null; rtmpPort: number }[];
  expect(nodes.some((n) => n.state !== "lost" && n.ingestUrl === null && n.rtmpPort === rtmpPort)).toBe(true);
});
