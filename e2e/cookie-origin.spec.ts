import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./accounts";

/**
 * A page on the same site as the dashboard but another origin (here another port of the
 * same address; in production a sibling subdomain) gets the creator's session cookie sent
 * along (SameSite=Lax allows it), and must still not change anything with it.
 */

/** A page served from another port of the dashboard's host, holding `body`. */
async function otherOriginPage(host: string, body: string) {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>elsewhere</title>${body}`));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const streamKeyOf = async (page: Page, id: string) => ((await (await page.request.get(`/api/stream/${id}`)).json()) as { streamKey: string }).streamKey;

test("a page on another origin of the site cannot rotate a stream key with the creator's cookie; the dashboard can", async ({ page, baseURL }) => {
  await signUp(page);
  // The dashboard's own page makes the stream, as its scripts call the API (Origin: this app).
  const stream = await page.evaluate(async () => {
    const res = await fetch("/api/stream", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Target" }) });
    return (await res.json()) as { id: string; streamKey: string };
  });
  expect(stream.streamKey).toBeTruthy();
  const rotate = `${new URL(baseURL!).origin}/api/stream/${stream.id}/rotate-key`;
  const me = `${new URL(baseURL!).origin}/api/user/me`;

  const elsewhere = await otherOriginPage(
    new URL(baseURL!).hostname,
    `<form method="post" action="${rotate}"></form>
     <script>
       const send = (url, method) => fetch(url, { method, mode: "no-cors", credentials: "include" });
       send(${JSON.stringify(me)}, "GET")
         .then(() => send(${JSON.stringify(rotate)}, "POST"))
         .then(() => (document.title = "sent"), () => (document.title = "failed"));
     </script>`,
  );
  try {
    const whoAmI = page.waitForResponse((r) => r.url() === me);
    const fetched = page.waitForResponse((r) => r.url() === rotate);
    await page.goto(elsewhere.url);
    expect((await whoAmI).status(), "the browser sent the creator's session cookie along: the app knew them").toBe(200);
    expect((await fetched).status()).toBe(403);
    await expect(page).toHaveTitle("sent");

    const posted = page.waitForResponse((r) => r.url() === rotate);
    await page.locator("form").evaluate((form: HTMLFormElement) => form.submit());
    expect((await posted).status()).toBe(403);
  } finally {
    await elsewhere.close();
  }
  expect(await streamKeyOf(page, stream.id), "the key is unchanged").toBe(stream.streamKey);

  // The dashboard itself still rotates it.
  await page.goto(`/streams/${stream.id}`);
  await page.getByRole("button", { name: "Rotate key" }).click();
  const confirm = page.getByRole("dialog", { name: "Rotate the stream key?" });
  await confirm.getByRole("button", { name: "Rotate key" }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => streamKeyOf(page, stream.id)).not.toBe(stream.streamKey);
});
