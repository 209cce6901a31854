import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

/**
 * One creator's first session: sign up, make an API key, set up a stream, forward it
 * to a multistream target, and subscribe a webhook. Each step checks what the page
 * shows, and where it matters, that the API agrees.
 */

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const email = `e2e-${unique}@example.com`;
const password = "correct-horse-battery";
const streamName = `E2E show ${unique}`;
const targetName = `E2E YouTube ${unique}`;
const targetUrl = `rtmp://a.rtmp.youtube.com/live2/e2e-secret-${unique}`;
const webhookName = `E2E alerts ${unique}`;

async function nav(page: Page, label: string) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
}

async function apiGet<T>(request: APIRequestContext, key: string, path: string): Promise<T> {
  const res = await request.get(path, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status(), `GET ${path}`).toBe(200);
  return (await res.json()) as T;
}

test("a creator signs up, sets up a stream, multistreams it and adds a webhook", async ({ page, request, baseURL }) => {
  let apiKey = "";
  let streamId = "";

  await test.step("sign up and land on the dashboard", async () => {
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("E2E Creator");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();

    await expect(page).toHaveURL(/\/streams$/);
    await expect(page.getByRole("heading", { level: 1, name: "Streams" })).toBeVisible();
    await expect(page.getByText("Create your first stream")).toBeVisible();
    await expect(page.getByTestId("user-email").first()).toHaveText(email);
  });

  await test.step("create an API key: shown once, then usable against the API", async () => {
    await nav(page, "API keys");
    await expect(page.getByText("No API keys yet")).toBeVisible();
    await page.getByRole("button", { name: "Create API key" }).click();

    const create = page.getByRole("dialog");
    await create.getByLabel("Name").fill("E2E key");
    await create.getByRole("button", { name: "Create key" }).click();

    await expect(create.getByText("You will not be able to see it again")).toBeVisible();
    const shown = create.getByTestId("new-api-key");
    await expect(shown).toHaveText(/^cl_\S{20,}$/);
    apiKey = (await shown.textContent()) ?? "";
    await expect(create.getByRole("button", { name: "Copy key" })).toBeVisible();
    await create.getByRole("button", { name: "I've saved it" }).click();

    // Once closed, only the prefix remains.
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByText(apiKey)).toHaveCount(0);
    const row = page.getByRole("row", { name: /E2E key/ });
    await expect(row).toContainText(`${apiKey.slice(0, 8)}…`);
    await expect(row).toContainText("Never");

    const me = await request.get("/api/user/me", { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(me.status()).toBe(200);
    expect((await me.json()).email).toBe(email);

    // The key's use shows up in the list (recorded in the background, hence the retry).
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("row", { name: /E2E key/ })).not.toContainText("Never", { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
  });

  await test.step("create a stream with the rendition presets and see it listed", async () => {
    await nav(page, "Streams");
    await page.getByRole("button", { name: "New stream" }).click();
    const create = page.getByRole("dialog");
    for (const preset of ["720p", "480p", "360p"]) {
      await expect(create.getByRole("checkbox", { name: `${preset} preset` })).toBeChecked();
    }
    await create.getByLabel("Stream name").fill(streamName);
    await create.getByRole("button", { name: "Create stream" }).click();

    // Creating opens the new stream's page; the list has it too.
    await expect(page.getByRole("heading", { level: 1, name: streamName })).toBeVisible();
    streamId = new URL(page.url()).pathname.split("/").pop() ?? "";
    await page.getByRole("link", { name: "Streams" }).first().click();
    const item = page.getByRole("list", { name: "Streams" }).getByRole("link", { name: new RegExp(streamName) });
    await expect(item).toBeVisible();
    await expect(item).toContainText("Idle");
    for (const preset of ["720p", "480p", "360p"]) await expect(item).toContainText(preset);
  });

  await test.step("the stream page shows how to go live and how to watch", async () => {
    await page.getByRole("link", { name: new RegExp(streamName) }).click();
    await expect(page.getByRole("heading", { level: 1, name: streamName })).toBeVisible();
    const stream = await apiGet<{ streamKey: string; playbackId: string; profiles: { name: string }[] }>(request, apiKey, `/api/stream/${streamId}`);
    expect(stream.profiles.map((p) => p.name)).toEqual(["720p", "480p", "360p"]);

    const host = new URL(baseURL!).hostname;
    await expect(page.getByTestId("ingest-url")).toHaveText(`rtmp://${host}:${process.env.CASTLINE_RTMP_PORT ?? 1935}/live`);

    const key = page.getByTestId("stream-key");
    await expect(key).not.toHaveText(stream.streamKey);
    await expect(key).toHaveText(/^[•-]+$/);
    await page.getByRole("button", { name: "Reveal stream key" }).click();
    await expect(key).toHaveText(stream.streamKey);
    await page.getByRole("button", { name: "Hide stream key" }).click();
    await expect(key).not.toHaveText(stream.streamKey);

    await expect(page.getByTestId("playback-id")).toHaveText(stream.playbackId);
    await expect(page.getByTestId("embed-code")).toContainText(`<iframe src="${new URL(baseURL!).origin}/play/${stream.playbackId}"`);
    await expect(page.getByRole("link", { name: "Open player" })).toHaveAttribute("href", `/play/${stream.playbackId}`);

    await page.getByRole("switch", { name: "Record" }).click();
    await expect(page.getByRole("switch", { name: "Record" })).toHaveAttribute("aria-checked", "true");
    await expect.poll(async () => (await apiGet<{ record: boolean }>(request, apiKey, `/api/stream/${streamId}`)).record).toBe(true);
  });

  await test.step("the media nodes are not a creator's business: no link, no page, no API (e2e/operators.spec.ts)", async () => {
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Multistream targets" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Media nodes" })).toHaveCount(0);
    expect((await request.get("/api/media-node", { headers: { Authorization: `Bearer ${apiKey}` } })).status()).toBe(403);
  });

  await test.step("add a multistream target; its URL is never shown back", async () => {
    await nav(page, "Multistream targets");
    await expect(page.getByText("Reach every platform at once")).toBeVisible();
    await page.getByRole("button", { name: "Add target" }).click();
    const create = page.getByRole("dialog");
    await create.getByLabel("Ingest URL").fill(targetUrl);
    await create.getByLabel("Name").fill(targetName);
    await create.getByRole("button", { name: "Add target" }).click();

    const list = page.getByRole("list", { name: "Multistream targets" });
    await expect(list).toContainText(targetName);
    await expect(list).toContainText("Enabled");
    await expect(page.getByText(targetUrl)).toHaveCount(0);
  });

  await test.step("attach the target to the stream, 720p and video only", async () => {
    await nav(page, "Streams");
    await page.getByRole("link", { name: new RegExp(streamName) }).click();
    const attach = page.getByRole("form", { name: "Attach a target" });
    await attach.getByLabel("Target", { exact: true }).selectOption({ label: targetName });
    await attach.getByLabel("Rendition").selectOption("720p");
    await attach.getByLabel("Video only").check();
    await attach.getByRole("button", { name: "Attach" }).click();

    const attached = page.getByRole("list", { name: "Attached targets" }).getByRole("listitem");
    await expect(attached).toHaveCount(1);
    await expect(attached).toContainText(targetName);
    await expect(attached).toContainText("720p");
    await expect(attached).toContainText("video only");

    const targets = await apiGet<{ id: string; name: string }[]>(request, apiKey, "/api/multistream/target");
    const target = targets.find((t) => t.name === targetName);
    // The page shows the change at once (an optimistic update) and saves it beside: the API holds it once the save lands.
    await expect
      .poll(async () => (await apiGet<{ multistream: { targets: unknown[] } }>(request, apiKey, `/api/stream/${streamId}`)).multistream.targets, {
        message: "the stream's targets, through the API",
      })
      .toEqual([{ id: target?.id, profile: "720p", videoOnly: true }]);
  });

  await test.step("create a webhook for two events; its secret is shown once", async () => {
    await nav(page, "Webhooks");
    await expect(page.getByText("No webhooks yet")).toBeVisible();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const create = page.getByRole("dialog");
    await create.getByLabel("Name").fill(webhookName);
    await create.getByLabel("Endpoint URL").fill("https://example.com/castline-e2e");
    await create.getByRole("checkbox", { name: "stream.started" }).check();
    await create.getByRole("checkbox", { name: "recording.ready" }).check();
    await expect(create.getByText("2 of")).toBeVisible();
    await create.getByRole("button", { name: "Add webhook" }).click();

    await expect(create.getByText("this is the only time the secret is shown")).toBeVisible();
    const secret = (await create.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await create.getByRole("button", { name: "Done" }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    const item = page.getByRole("list", { name: "Webhooks" }).getByRole("link", { name: new RegExp(webhookName) });
    await expect(item).toContainText("stream.started");
    await expect(item).toContainText("recording.ready");

    await item.click();
    await expect(page.getByRole("heading", { level: 1, name: webhookName })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "stream.started" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "recording.ready" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "stream.idle" })).not.toBeChecked();

    const webhooks = await apiGet<{ name: string; events: string[] }[]>(request, apiKey, "/api/webhook");
    expect(webhooks.find((w) => w.name === webhookName)?.events).toEqual(["stream.started", "recording.ready"]);
  });
});
