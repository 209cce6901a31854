import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { fromDashboard, signUpByApi, unique } from "./accounts";
import { makeMedia, putFile, tmpDir } from "../test/support/vod";
import { play } from "./support/player";

/**
 * Viewer access control in the dashboard and the player: signing keys (the private key shown
 * once), a test token signed in the browser, a stream's and a video's policy set to signed JWT,
 * and a viewer's player without a token (private), with a bad one (refused), and with a good one
 * (plays, and rides out an expired playback token where it was); a video that plays only on the
 * sites its policy allows, embedded there and elsewhere.
 */

const pem = (base64: string) => Buffer.from(base64, "base64").toString("utf8");

/** A viewer token as a creator's server would make it (Node's crypto, not the dashboard's code). */
function serverToken(playbackId: string, signingKey: { publicKey: string; privateKey: string }, lifetimeS = 3600) {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const iat = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: "ES256", typ: "JWT" })}.${b64({ sub: playbackId, pub: signingKey.publicKey, action: "pull", iss: "Castline", iat, exp: iat + lifetimeS })}`;
  const signature = sign("sha256", Buffer.from(input), { key: createPrivateKey(pem(signingKey.privateKey)), dsaEncoding: "ieee-p1363" });
  return `${input}.${signature.toString("base64url")}`;
}

/** A dashboard card, by its title. */
const card = (page: Page, title: string) => page.locator("section").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

const currentTime = (video: Locator) => video.evaluate((v: HTMLVideoElement) => v.currentTime);

test("signing keys: the private key shown once, a test token signed in the browser, rename, disable, delete", async ({ page }) => {
  await signUpByApi(page, { name: "Key Keeper" });
  const name = `Backend ${unique()}`;
  const created = await page.request.post("/api/stream", { headers: fromDashboard, data: { name: `Private show ${unique()}` } });
  expect(created.status()).toBe(201);
  const stream = (await created.json()) as { id: string; name: string; playbackId: string };
  await page.goto("/streams");

  let privateKey = "";
  let publicKey = "";

  await test.step("create a key: the private key is shown once, with a warning and a copy button", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Access control" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Access control" })).toBeVisible();
    await expect(page.getByText("No signing keys yet")).toBeVisible();
    await page.getByRole("button", { name: "Create signing key" }).click();

    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByText("You will not be able to see it again")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Copy private key" }).last()).toBeVisible();
    // Masked until revealed.
    await expect(dialog.getByTestId("new-private-key")).toHaveText(/^•+$/);
    await dialog.getByRole("button", { name: "Reveal private key" }).click();
    privateKey = (await dialog.getByTestId("new-private-key").textContent()) ?? "";
    publicKey = (await dialog.getByTestId("new-public-key").textContent()) ?? "";
    expect(pem(privateKey)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(pem(publicKey)).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    // The two halves belong together (an ES256 pair).
    expect(createPublicKey(createPrivateKey(pem(privateKey))).export({ type: "spki", format: "pem" })).toBe(
      createPublicKey(pem(publicKey)).export({ type: "spki", format: "pem" }),
    );
    await dialog.getByRole("button", { name: "I've saved it" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    const row = page.getByTestId("signing-key").filter({ hasText: name });
    await expect(row).toContainText("Enabled");
    await expect(row).toContainText("never used");
    // The API never gives the private key again.
    const listed = await (await page.request.get("/api/access-control/signing-key")).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name, publicKey, disabled: false });
    expect(JSON.stringify(listed)).not.toContain(privateKey);
    // The token helper keeps this tab's copy across a reload (sessionStorage), never the server's.
    await page.reload();
    await expect(page.getByLabel("Private key")).toHaveValue(privateKey);
  });

  await test.step("sign a test token in the browser: an ES256 JWT for the chosen stream, naming the key", async () => {
    const helper = card(page, "Sign a test token");
    await helper.getByLabel("Private key").fill(privateKey);
    await helper.getByLabel("Playback ID").selectOption({ label: stream.name });
    await helper.getByLabel("Expires after").selectOption({ label: "1 hour" });
    let sent = false;
    page.on("request", (req) => void (sent ||= (req.postData() ?? "").includes(privateKey.slice(40, 80)) || req.url().includes(privateKey.slice(40, 80))));
    await helper.getByRole("button", { name: "Sign token" }).click();

    const token = (await helper.getByLabel("Signed token").textContent()) ?? "";
    const [header, claims, signature] = token.split(".");
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({ alg: "ES256", typ: "JWT" });
    const payload = JSON.parse(Buffer.from(claims, "base64url").toString());
    expect(payload).toMatchObject({ sub: stream.playbackId, pub: publicKey, action: "pull", iss: "Castline" });
    expect(payload.exp - payload.iat).toBe(3600);
    expect(
      verify(
        "sha256",
        Buffer.from(`${header}.${claims}`),
        { key: createPublicKey(pem(publicKey)), dsaEncoding: "ieee-p1363" },
        Buffer.from(signature, "base64url"),
      ),
    ).toBe(true);
    await expect(helper.getByTestId("token-player-link")).toHaveAttribute("href", `/play/${stream.playbackId}?jwt=${token}`);
    expect(sent, "the private key never leaves the browser").toBe(false);

    // A key that is none of this user's is refused before signing.
    await helper.getByLabel("Private key").fill("not a key");
    await helper.getByRole("button", { name: "Sign token" }).click();
    await expect(helper.getByRole("alert")).toContainText("not a private key");
  });

  const row = () => page.getByTestId("signing-key").first();

  await test.step("rename, disable and enable the key", async () => {
    await row()
      .getByRole("button", { name: `Rename ${name}` })
      .click();
    await page.getByRole("dialog").getByLabel("Name").fill(`${name} renamed`);
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await expect(row()).toContainText(`${name} renamed`);

    await row()
      .getByRole("button", { name: /^Disable / })
      .click();
    await expect(row()).toContainText("Disabled");
    expect((await (await page.request.get("/api/access-control/signing-key")).json())[0]).toMatchObject({ name: `${name} renamed`, disabled: true });
    await row()
      .getByRole("button", { name: /^Enable / })
      .click();
    await expect(row()).toContainText("Enabled");
  });

  await test.step("delete the key after confirming", async () => {
    await row()
      .getByRole("button", { name: /^Delete / })
      .click();
    const confirm = page.getByRole("dialog");
    await expect(confirm).toContainText("will be refused");
    await confirm.getByRole("button", { name: "Delete key" }).click();
    await expect(page.getByText("No signing keys yet")).toBeVisible();
    expect(await (await page.request.get("/api/access-control/signing-key")).json()).toEqual([]);
  });
});

test("a stream and a video set to signed JWT: private without a token, refused with a bad one, playing with a good one", async ({ page, browser }) => {
  // An upload, two policies set in the dashboard, and a video over a slow link: minutes on a busy machine.
  test.setTimeout(300_000);
  await signUpByApi(page, { name: "Private Creator" });
  const key = await (await page.request.post("/api/access-control/signing-key", { headers: fromDashboard, data: { name: "server" } })).json();
  const stream = await (await page.request.post("/api/stream", { headers: fromDashboard, data: { name: `Members only ${unique()}` } })).json();
  // 24 s: the viewer below seeks to 16 s, past what a slow link has fetched by then (about 4 s
  // of video per 11 s: 4 s segments of ~110 KB/s over 40 KB/s), to segments not fetched yet.
  const file = await makeMedia(tmpDir(), "mp4", { seconds: 24, size: "320x180" });
  const requested = await (await page.request.post("/api/asset/request-upload", { headers: fromDashboard, data: { name: path.basename(file) } })).json();
  expect((await putFile(requested.url, file)).status).toBe(200);
  const asset = requested.asset as { id: string; playbackId: string };

  await test.step("the stream page sets the stream to signed JWT", async () => {
    await page.goto(`/streams/${stream.id}`);
    const access = card(page, "Viewer access");
    await expect(access.getByTestId("current-policy")).toHaveText("Public");
    await access.getByRole("radio", { name: /Signed JWT/ }).check();
    await access.getByRole("button", { name: "Save access" }).click();
    await expect(access.getByRole("status")).toHaveText("Saved");
    await expect(access.getByTestId("current-policy")).toHaveText("Signed JWT");
    expect((await (await page.request.get(`/api/stream/${stream.id}`)).json()).playbackPolicy).toMatchObject({ type: "jwt" });
  });

  await test.step("the asset page sets the video to signed JWT", async () => {
    await page.goto(`/assets/${asset.id}`);
    await expect(page.getByTestId("asset-status")).toContainText("ready", { timeout: 60_000 });
    const access = card(page, "Viewer access");
    await access.getByRole("radio", { name: /Signed JWT/ }).check();
    await access.getByRole("textbox", { name: /Allowed origins/ }).fill("https://example.com");
    await access.getByRole("button", { name: "Save access" }).click();
    await expect(access.getByTestId("current-policy")).toHaveText("Signed JWT");
    expect((await (await page.request.get(`/api/asset/${asset.id}`)).json()).playbackPolicy).toMatchObject({
      type: "jwt",
      allowedOrigins: ["https://example.com"],
    });
    // Back to any site (the origins check has tests of its own).
    await access.getByRole("textbox", { name: /Allowed origins/ }).fill("");
    await access.getByRole("button", { name: "Save access" }).click();
    await expect(access.getByRole("status")).toHaveText("Saved");
  });

  // A viewer: no cookies. Closed at the end (a failed test's browser goes with its worker), so
  // its video does not play on through the tests that follow.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  const player = viewer.getByTestId("player");

  await test.step("without a token the player says the stream and the video are private", async () => {
    await viewer.goto(`/play/${stream.playbackId}`);
    await expect(player).toHaveAttribute("data-status", "private");
    await expect(viewer.getByText("This stream is private")).toBeVisible();
    await viewer.goto(`/play/${asset.playbackId}`);
    await expect(viewer.getByText("This video is private")).toBeVisible();
    await expect(viewer.getByText("A viewing token is needed")).toBeVisible();
  });

  await test.step("with a bad token it says why it refuses", async () => {
    const forged = serverToken(asset.playbackId, key).replace(/.{8}$/, "AAAAAAAA");
    await viewer.goto(`/play/${asset.playbackId}?jwt=${forged}`);
    await expect(player).toHaveAttribute("data-status", "refused");
    await expect(viewer.getByText("You can’t watch this video")).toBeVisible();
    await expect(player.getByText(/expired/)).toHaveCount(0);
    const expired = serverToken(asset.playbackId, key, -60);
    await viewer.goto(`/play/${asset.playbackId}?jwt=${expired}`);
    await expect(player).toHaveAttribute("data-status", "refused");
    // Only a link whose JWT is past its exp is said to have expired; the forged one above was not.
    await expect(viewer.getByText("This link has expired")).toBeVisible();
  });

  const video = viewer.getByTestId("player-video");

  await test.step("with a good token it plays", async () => {
    // A slow link, so the player has fetched only part of the video when its token expires below.
    const cdp = await viewer.context().newCDPSession(viewer);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: 40_000, uploadThroughput: -1 });
    await viewer.goto(`/play/${asset.playbackId}?jwt=${serverToken(asset.playbackId, key)}`);
    await expect(player).toHaveAttribute("data-status", "ready");
    await expect.poll(() => currentTime(video), { timeout: 30_000, message: "the private video plays" }).toBeGreaterThan(1);
  });

  await test.step("when its playback token expires mid-play, it gets a fresh one and goes on from where it was", async () => {
    const src = await viewer.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .find((u) => /tkn=/.test(u)),
    );
    expect(src, "media requests carry a playback token").toBeTruthy();
    const first = new URL(src!).searchParams.get("tkn")!;
    // From now on the first playback token is refused, as an expired one would be.
    await viewer.route(
      (url) => url.searchParams.get("tkn") === first,
      (route) => route.fulfill({ status: 403, contentType: "application/json", body: '{"errors":["playback token expired"]}' }),
    );
    const refetched = viewer.waitForRequest((req) => req.url().includes(`/api/playback/${asset.playbackId}`) && !!req.headers()["livepeer-jwt"]);
    // Far ahead, past what is buffered: the next segments are asked for with the refused token.
    expect(await video.evaluate((v: HTMLVideoElement) => v.buffered.end(v.buffered.length - 1)), "not all fetched yet").toBeLessThan(16);
    await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 16));
    await refetched;
    await expect.poll(() => currentTime(video), { timeout: 90_000, message: "it plays on from 16 s" }).toBeGreaterThan(17);
    expect(await currentTime(video), "not started over").toBeGreaterThan(16);
    await expect(player).toHaveAttribute("data-status", "ready");
  });
  await viewerContext.close();
});

/** A web site of its own on loopback (its own port, so its own origin), serving the pages a test gives it, and hls.js. */
async function webSite() {
  const pages: Record<string, string> = {};
  const server = createServer((req, res) => {
    if (req.url === "/hls.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      return fs.createReadStream(path.join(path.dirname(require.resolve("hls.js")), "hls.min.js")).pipe(res);
    }
    const page = pages[req.url ?? "/"];
    res.writeHead(page === undefined ? 404 : 200, { "content-type": "text/html" }).end(page ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages, close: () => server.close() };
}

/** Pages that send no Referer: what the finding's image and frames did. */
const NO_REFERRER = '<meta name="referrer" content="no-referrer">';

/** Whether an image of the page loaded (false once it failed). */
const imageLoaded = (page: Page, selector: string) =>
  expect.poll(() => page.locator(selector).evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth > 0 : undefined)), { timeout: 60_000 });

test("a video that plays only on its allowed site: embedded there it plays; other sites, no-referrer and sandboxed pages, and other sites framing the allowed one are refused", async ({
  page,
  browser,
  baseURL,
}) => {
  // An upload, then eight pages on two sites, three of them playing: minutes on a busy machine.
  // Each page is closed once looked at, so no video plays on behind the next one.
  test.setTimeout(300_000);
  const good = await webSite();
  const evil = await webSite();
  const viewer = await browser.newContext();
  try {
    await signUpByApi(page, { name: "Embedding Creator" });
    const requested = await (
      await page.request.post("/api/asset/request-upload", {
        headers: fromDashboard,
        data: { name: `Embed only ${unique()}`, playbackPolicy: { type: "public", allowedOrigins: [good.origin] } },
      })
    ).json();
    expect((await putFile(requested.url, await makeMedia(tmpDir(), "mp4", { seconds: 6, size: "320x180" }))).status).toBe(200);
    const { id, playbackId } = requested.asset as { id: string; playbackId: string };
    await expect.poll(async () => (await (await page.request.get(`/api/asset/${id}`)).json()).status.phase, { timeout: 90_000 }).toBe("ready");

    const player = `${baseURL}/play/${playbackId}`;
    const thumbnail = `${baseURL}/asset/${playbackId}/thumbnail.jpg`;
    const info = `${baseURL}/api/playback/${playbackId}`;
    const frame = `<iframe src="${player}" width="640" height="360" style="border:0" allow="autoplay; fullscreen"></iframe>`;
    good.pages["/"] = `<!doctype html><h1>Allowed blog</h1>${frame}<img id="thumbnail" src="${thumbnail}">`;
    good.pages["/sandboxed"] = `<!doctype html><iframe sandbox="allow-scripts" src="${player}" width="640" height="360"></iframe>`;
    // A third-party player (hls.js on the allowed site's own page), as Livepeer's Player plays.
    good.pages["/own-player"] = `<!doctype html><video id="video" muted autoplay></video><script src="/hls.js"></script><script>
      fetch(${JSON.stringify(info)}).then((r) => r.json()).then((info) => {
        const hls = new Hls(); hls.loadSource(info.meta.source.find((s) => /mpegurl/.test(s.type)).url); hls.attachMedia(document.getElementById("video"));
      });</script>`;
    evil.pages["/framed"] = `<!doctype html>${frame}`;
    evil.pages["/no-referrer"] = `<!doctype html>${NO_REFERRER}<img id="thumbnail" src="${thumbnail}">${frame}`;
    evil.pages["/sandboxed-player"] = `<!doctype html>${NO_REFERRER}<iframe sandbox="allow-scripts" src="${player}" width="640" height="360"></iframe>`;
    // An opaque page of its own (Origin: null) asking for the playback info and playing the file.
    const opaque = `${NO_REFERRER}<video id="video" muted autoplay src="${baseURL}/asset/${playbackId}/video"></video><script>
      const tell = (what) => parent.postMessage(what, "*");
      fetch(${JSON.stringify(info)}).then((r) => tell({ info: r.status }), () => tell({ info: "failed" }));
      const video = document.getElementById("video");
      video.onloadeddata = () => tell({ video: "loaded" }); video.onerror = () => tell({ video: "failed" });</script>`;
    evil.pages["/sandboxed"] =
      `<!doctype html>${NO_REFERRER}<script>window.told = {}; addEventListener("message", (e) => Object.assign(window.told, e.data));</script>
      <iframe sandbox="allow-scripts" srcdoc="${opaque.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`;
    evil.pages["/nested"] = `<!doctype html><iframe src="${good.origin}/" width="700" height="420"></iframe>`;

    /** `url` in a new tab of the viewer's, for `look`; then the tab is closed. */
    const visit = async (url: string, look: (tab: Page) => Promise<void>) => {
      const tab = await viewer.newPage();
      try {
        await tab.goto(url);
        await look(tab);
      } finally {
        await tab.close();
      }
    };
    const playing = async (video: Locator) => expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(1);
    const refused = async (frame: FrameLocator, reason: RegExp) => {
      await expect(frame.getByTestId("player")).toHaveAttribute("data-status", "refused");
      await expect(frame.getByText(reason)).toBeVisible();
      await expect(frame.getByTestId("player-video")).toHaveCount(0);
    };

    await test.step("embedded on the allowed site the player plays, and its image shows", async () => {
      await visit(`${good.origin}/`, async (blog) => {
        await playing(blog.frameLocator("iframe").getByTestId("player-video"));
        await imageLoaded(blog, "#thumbnail").toBe(true);
      });
    });

    await test.step("a third-party player on the allowed site plays it (CORS for that site)", async () => {
      await visit(`${good.origin}/own-player`, (own) => playing(own.locator("#video")));
    });

    await test.step("a page sending no Referer: neither its image nor its frame plays", async () => {
      await visit(`${evil.origin}/no-referrer`, async (hidden) => {
        await imageLoaded(hidden, "#thumbnail").toBe(false);
        await refused(hidden.frameLocator("iframe"), /plays only on the sites its owner allows/);
      });
    });

    await test.step("sandboxed frames (Origin: null) are refused, on any site", async () => {
      await visit(`${evil.origin}/sandboxed-player`, (sandboxedPlayer) =>
        refused(sandboxedPlayer.frameLocator("iframe"), /plays only on the sites its owner allows/),
      );
      await visit(`${evil.origin}/sandboxed`, (opaquePage) =>
        expect.poll(() => opaquePage.evaluate(() => (window as unknown as { told: object }).told), { timeout: 60_000 }).toEqual({ info: 403, video: "failed" }),
      );
      // Even framed by the allowed site: the player page's requests come from an opaque origin.
      await visit(`${good.origin}/sandboxed`, (goodSandbox) => refused(goodSandbox.frameLocator("iframe"), /sandboxed or opaque page/));
    });

    await test.step("another site framing the allowed page: refused where the browser tells the frames around the player", async () => {
      await visit(`${evil.origin}/nested`, (nested) =>
        refused(nested.frameLocator("iframe").frameLocator("iframe"), new RegExp(`may not be played on ${evil.origin}`)),
      );
    });

    await test.step("another site's frame is refused, naming that site", async () => {
      await visit(`${evil.origin}/framed`, (framed) => refused(framed.frameLocator("iframe"), new RegExp(`may not be played on ${evil.origin}`)));
    });

    await test.step("the owner, signed in, still watches it in the dashboard", async () => {
      await page.goto(`/assets/${id}`);
      const video = page.getByTestId("player-video");
      await play(video);
      await playing(video);
    });
  } finally {
    await viewer.close();
    good.close();
    evil.close();
  }
});
