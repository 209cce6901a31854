import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { EXAMPLE_IDS } from "@/lib/api/reference";
import { call, newAccount } from "./support/client";
import { startReceiver } from "./support/receiver";
import { makeMedia, putFile, settled, tmpDir } from "./support/vod";

interface DocOperation {
  description?: string;
  tags: string[];
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { example?: unknown }> };
}
type Doc = { info: { description: string }; tags: { name: string; description?: string }[]; paths: Record<string, Record<string, DocOperation>> };

const served = async () => (await call("GET", "openapi.json")).body as Doc;

/** The first fenced code block of one language in a guide, as a reader would copy it. */
function snippet(doc: Doc, guide: string, language: string): string {
  const [, section = ""] = doc.info.description.split(`\n## ${guide}\n`);
  const block = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(section.split("\n## ")[0]);
  assert.ok(block, `the guide "${guide}" has no ${language} block`);
  return block[1];
}

describe("API description", () => {
  test("/api/openapi.json describes every endpoint from the zod schemas", async () => {
    const res = await call("GET", "openapi.json");
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, "3.1.0");
    for (const path of [
      "/stream",
      "/stream/{id}",
      "/stream/{id}/record",
      "/stream/{id}/sessions",
      "/session",
      "/session/{id}",
      "/multistream/target",
      "/multistream/target/{id}",
      "/asset",
      "/asset/{id}",
      "/task",
      "/task/{id}",
      "/webhook",
      "/webhook/{id}",
      "/user/me",
    ]) {
      assert.ok(doc.paths[path], path);
    }
    assert.equal(doc.paths["/stream"].post.responses["201"].content["application/json"].schema.$ref, "#/components/schemas/Stream");
    const profile = doc.components.schemas.Profile;
    assert.deepEqual(profile.required.sort(), ["bitrate", "fps", "height", "name", "width"]);
    assert.equal(doc.components.schemas.MultistreamTarget.properties.url, undefined, "url is write-only");
  });

  test("every tag and every operation has a description", async () => {
    const doc = await served();
    const tagged = new Map(doc.tags.map((t) => [t.name, t.description ?? ""]));
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        assert.ok(op.description?.trim(), `${method.toUpperCase()} ${path} has no description`);
        assert.ok(tagged.get(op.tags[0])?.trim(), `${method.toUpperCase()} ${path}: its tag ${op.tags[0]} has no description`);
      }
    }
  });

  test("every request example in the document succeeds when sent, with real objects for its ids", async () => {
    const doc = await served();
    const api = await newAccount();
    const examples = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.requestBody?.content["application/json"]?.example !== undefined)
        .map(([method, op]) => ({ path, method: method.toUpperCase(), op, example: op.requestBody!.content["application/json"].example })),
    );
    assert.ok(examples.length >= 15, `only ${examples.length} examples`);
    const exampleOf = (method: string, path: string) => examples.find((e) => e.method === method && e.path === path)!.example;

    // The objects the examples name: made from the document's own creation examples where there is one.
    const stream = await api.post("stream", exampleOf("POST", "/stream"));
    assert.equal(stream.status, 201, JSON.stringify(stream.body));
    const target = await api.post("multistream/target", { name: "Local", url: "rtmp://127.0.0.1:1/live/key" });
    assert.equal(target.status, 201, JSON.stringify(target.body));
    const webhook = await api.post("webhook", exampleOf("POST", "/webhook"));
    assert.equal(webhook.status, 200, JSON.stringify(webhook.body));
    const signingKey = await api.post("access-control/signing-key", {});
    assert.equal(signingKey.status, 200);
    const upload = await api.post("asset/request-upload", exampleOf("POST", "/asset/request-upload"));
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    assert.equal((await putFile(upload.body.url, await makeMedia(tmpDir(), "mp4"))).status, 200);
    const asset = await settled(api, upload.body.asset.id);
    assert.equal(asset.status.phase, "ready");

    const pathIds: Record<string, string> = {
      stream: stream.body.id,
      "multistream/target": target.body.id,
      asset: asset.id,
      "access-control/signing-key": signingKey.body.id,
      webhook: webhook.body.id,
    };
    const bodyIds: Record<string, string> = {
      [EXAMPLE_IDS.targetId]: target.body.id,
      [EXAMPLE_IDS.webhookId]: webhook.body.id,
      [EXAMPLE_IDS.assetPlaybackId]: asset.playbackId,
    };
    assert.deepEqual(Object.keys(bodyIds).sort(), Object.values(EXAMPLE_IDS).sort());

    const failures: string[] = [];
    for (const { path, method, op, example } of examples) {
      const resource = /^\/(.+)\/\{id\}/.exec(path)?.[1];
      if (resource) assert.ok(pathIds[resource], `no object made for ${path}`);
      const url = path.replace("{id}", resource ? pathIds[resource] : "").slice(1);
      let body = JSON.stringify(example);
      for (const [illustrative, real] of Object.entries(bodyIds)) body = body.replaceAll(illustrative, real);
      const res = await api.send(method, url, { raw: body });
      const success = Object.keys(op.responses).find((s) => s.startsWith("2"));
      if (String(res.status) !== success) failures.push(`${method} ${path} ${body}: ${res.status} ${JSON.stringify(res.body)} (documented ${success})`);
    }
    assert.deepEqual(failures, []);
  });

  test("the guides' signature checks, as printed, verify a real delivery and refuse altered ones", async (t) => {
    const doc = await served();
    const api = await newAccount();
    const receiver = await startReceiver();
    try {
      const created = await api.post("webhook", { name: "Signature check", url: receiver.url, events: ["asset.ready"] });
      assert.equal(created.status, 200);
      assert.equal((await api.post(`webhook/${created.body.id}/test`, { event: "asset.ready" })).status, 202);
      const [delivery] = await receiver.waitFor(1);
      const header = delivery.headers["castline-signature"] as string;
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      const cases = [
        { body: delivery.body, header, secret: created.body.sharedSecret },
        { body: delivery.body.replace("asset.ready", "asset.fails"), header, secret: created.body.sharedSecret },
        { body: delivery.body, header, secret: "whsec_not-the-secret" },
      ];
      const expected = [true, false, false];

      const node = snippet(doc, "Webhooks", "js");
      const nodeFunction = /function (\w+)\(/.exec(node)![1];
      const nodeProgram = `${node}\nconst cases = JSON.parse(require("node:fs").readFileSync(0, "utf8"));\nconsole.log(JSON.stringify(cases.map((c) => ${nodeFunction}(c.body, c.header, c.secret))));`;
      const nodeResult = execFileSync(process.execPath, ["-e", nodeProgram], { input: JSON.stringify(cases), encoding: "utf8" });
      assert.deepEqual(JSON.parse(nodeResult), expected, "Node.js snippet");

      if (spawnSync("python3", ["--version"]).status !== 0) {
        t.skip("python3 is not installed here: the Python snippet was not run");
        return;
      }
      const python = snippet(doc, "Webhooks", "python");
      const pythonFunction = /def (\w+)\(/.exec(python)![1];
      const pythonProgram = `${python}\nimport json, sys\ncases = json.load(sys.stdin)\nprint(json.dumps([${pythonFunction}(c["body"].encode(), c["header"], c["secret"]) for c in cases]))`;
      const pythonResult = execFileSync("python3", ["-c", pythonProgram], { input: JSON.stringify(cases), encoding: "utf8" });
      assert.deepEqual(JSON.parse(pythonResult), expected, "Python snippet");
    } finally {
      await receiver.close();
    }
  });

  test("/api/ingest tells encoders where to publish, on this deployment's RTMP port", async () => {
    const res = await call("GET", "ingest");
    assert.equal(res.status, 200);
    const host = new URL(process.env.CASTLINE_URL!).hostname;
    // Other files' media nodes may be listed too (files run side by side): this app's own is one.
    const ingests = res.body.map((i: { ingest: string }) => i.ingest);
    assert.ok(ingests.includes(`rtmp://${host}:${process.env.CASTLINE_RTMP_PORT}/live`), ingests.join(", "));
  });

  test("/docs serves the API reference with its script from this server, configured to load nothing else", async () => {
    const page = await call("GET", "/docs");
    assert.equal(page.status, 200);
    assert.match(page.body, /<script src="\/docs\/scalar.js"><\/script>/);
    assert.match(page.body, /"url":"\/api\/openapi.json"/);
    assert.match(page.body, /"withDefaultFonts":false/);
    const script = await fetch(new URL("/docs/scalar.js", process.env.CASTLINE_URL));
    assert.equal(script.status, 200);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000);
  });
});
