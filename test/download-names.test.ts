import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse } from "content-disposition";
import { newAccount } from "./support/client";
import { until } from "./support/media";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

const tmp = tmpDir();

/** The name a browser saves a download under (Content-Disposition's filename*, else filename). */
async function savedAs(url: string) {
  const res = await fetch(url, { method: "HEAD" });
  assert.equal(res.status, 200, url);
  const header = res.headers.get("content-disposition");
  assert.ok(header, `${url} names its download`);
  assert.match(header, /^inline;/, "players still play the URL");
  return parse(header).parameters.filename;
}

describe("downloads", () => {
  test("an asset's download and its static MP4s are named after the asset, at the same URLs", async () => {
    const api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 3 });
    const name = "Café: live/day 1.mov";
    const requested = await api.post("asset/request-upload", { name, staticMp4: true });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    assert.equal((await putFile(requested.body.url, file)).status, 200);
    const asset = await settled(api, requested.body.asset.id);
    assert.equal(asset.status.phase, "ready", asset.status.errorMessage);

    assert.match(asset.downloadUrl, /\/asset\/[\w-]+\/video$/);
    assert.equal(await savedAs(asset.downloadUrl), "Café live day 1.mp4");

    const withMp4 = await until(
      "a static MP4 rendition",
      async () => {
        const a = (await api.get(`asset/${asset.id}`)).body;
        return a.renditions?.find((r: { phase: string; mp4Url?: string }) => r.phase === "ready" && r.mp4Url);
      },
      90_000,
      500,
    );
    assert.match(withMp4.mp4Url, new RegExp(`/asset/${asset.playbackId}/mp4/${withMp4.name}\\.mp4$`));
    assert.equal(await savedAs(withMp4.mp4Url), `Café live day 1 ${withMp4.name}.mp4`);
  });
});
