import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { sessions } from "@/db/schema";
import { BASE, newAccount, raw, type Api } from "./support/client";
import { db, startSession } from "./support/db";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

/**
 * Without PUBLIC_URL (the suite's app has none), the URLs handed to clients are at the
 * origin the request came to: the same app asked as localhost and as 127.0.0.1 answers
 * with URLs on each. (Behind a trusted proxy, X-Forwarded-Host decides: test/unit/auth-origin.test.ts.)
 */

const port = new URL(BASE).port;
const HOSTS = [`127.0.0.1:${port}`, `localhost:${port}`];

/** An API call that reached the app by `host`, answered as JSON. */
async function at(api: Api, host: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { host, authorization: `Bearer ${api.key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await raw(BASE, method, `/api/${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
  assert.ok(res.status < 300, `${method} ${path} via ${host}: ${res.status} ${res.body}`);
  return JSON.parse(res.body);
}

/** Every absolute http(s) URL in a JSON answer. */
const urlsIn = (value: unknown): string[] => JSON.stringify(value).match(/https?:\/\/[^"\\]+/g) ?? [];

function allAt(host: string, urls: string[], what: string) {
  assert.ok(urls.length > 0, `${what} has URLs`);
  for (const url of urls) assert.equal(new URL(url).host, host, `${what}: ${url}`);
}

describe("URLs handed to clients follow the request's origin", () => {
  test("upload URLs, tus Location, asset and playback URLs, ingest points and recording URLs", async () => {
    const api = await newAccount();
    const dir = tmpDir();
    const { asset, url } = await at(api, HOSTS[0], "POST", "asset/request-upload", { name: "origins" });
    await putFile(url, await makeMedia(dir, "mp4", { seconds: 2 }));
    assert.equal((await settled(api, asset.id)).status.phase, "ready");
    const stream = (await api.post("stream", { name: "origins", record: true })).body;
    const session = await startSession(stream.id);
    await db().update(sessions).set({ recordingStatus: "ready" }).where(eq(sessions.id, session.id));

    for (const host of HOSTS) {
      const upload = await at(api, host, "POST", "asset/request-upload", { name: "via " + host });
      allAt(host, [upload.url, upload.tusEndpoint], "request-upload");
      const tus = await raw(BASE, "POST", new URL(upload.tusEndpoint).pathname + new URL(upload.tusEndpoint).search, {
        host,
        "tus-resumable": "1.0.0",
        "upload-length": "10",
      });
      assert.equal(tus.status, 201, tus.body);
      allAt(host, [tus.headers.location!], "tus Location");

      allAt(host, urlsIn(await at(api, host, "GET", `asset/${asset.id}`)), "asset");
      allAt(host, urlsIn(await at(api, host, "GET", `playback/${asset.playbackId}`)), "playback info");
      const ingests = await at(api, host, "GET", "ingest");
      allAt(
        host,
        ingests.flatMap((i: { base: string; playback: string }) => [i.base, i.playback]),
        "ingest",
      );
      // The suite's own node has no host of its own: encoders reach it by the host they asked.
      assert.ok(
        ingests.some((i: { ingest: string }) => new URL(i.ingest).hostname === host.split(":")[0]),
        JSON.stringify(ingests),
      );
      const recorded = await at(api, host, "GET", `session/${session.id}`);
      allAt(host, [recorded.recordingUrl, recorded.mp4Url], "session");
    }
  });
});
