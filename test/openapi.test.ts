import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { call } from "./support/client";

describe("API description", () => {
  test("/api/openapi.json describes every endpoint from the zod schemas", async () => {
    const res = await call("GET", "openapi.json");
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, "3.1.0");
    for (const path of ["/stream", "/stream/{id}", "/stream/{id}/record", "/stream/{id}/sessions", "/session", "/session/{id}", "/multistream/target", "/multistream/target/{id}", "/asset", "/asset/{id}", "/task", "/task/{id}", "/webhook", "/webhook/{id}", "/user/me"]) {
      assert.ok(doc.paths[path], path);
    }
    assert.equal(doc.paths["/stream"].post.responses["201"].content["application/json"].schema.$ref, "#/components/schemas/Stream");
    const profile = doc.components.schemas.Profile;
    assert.deepEqual(profile.required.sort(), ["bitrate", "fps", "height", "name", "width"]);
    assert.equal(doc.components.schemas.MultistreamTarget.properties.url, undefined, "url is write-only");
  });

  test("/api/ingest tells encoders where to publish, on this deployment's RTMP port", async () => {
    const res = await call("GET", "ingest");
    assert.equal(res.status, 200);
    const host = new URL(process.env.CASTLINE_URL!).hostname;
    assert.equal(res.body[0].ingest, `rtmp://${host}:${process.env.CASTLINE_RTMP_PORT}/live`);
  });

  test("/docs serves the API reference with its script from this server", async () => {
    const page = await call("GET", "/docs");
    assert.equal(page.status, 200);
    assert.match(page.body, /data-url="\/api\/openapi.json"/);
    const script = await fetch(new URL("/docs/scalar.js", process.env.CASTLINE_URL));
    assert.equal(script.status, 200);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000);
  });
});
