import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { answerOf, ApiRequestError, call, encodeQuery, fillPath, nextCursor, RawBody, requestOf } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";

const stream = {
  id: "s1",
  name: "show",
  userId: "u1",
  createdAt: 1,
  profiles: [],
  record: false,
  suspended: false,
  isActive: false,
  multistream: { targets: [] },
  sourceSegments: 0,
  transcodedSegments: 0,
  sourceSegmentsDuration: 0,
  transcodedSegmentsDuration: 0,
};

test("a path is filled from its params, each encoded as one segment; a missing one is a programming error", () => {
  assert.equal(fillPath("/webhook/{id}/log/{logId}/resend", { id: "w 1", logId: "a/b?c#d" }), "/webhook/w%201/log/a%2Fb%3Fc%23d/resend");
  assert.equal(fillPath("/stream"), "/stream");
  assert.throws(() => fillPath("/stream/{id}", {}), /\/stream\/\{id\} needs its "id" parameter/);
});

test("a query is URL-encoded: undefined fields left out, arrays repeated, numbers and booleans as text", () => {
  assert.equal(encodeQuery({ limit: 50, cursor: undefined, streamsonly: "1" }), "limit=50&streamsonly=1");
  assert.equal(
    encodeQuery({ filters: JSON.stringify([{ id: "name", value: "a&b" }]) }),
    "filters=%5B%7B%22id%22%3A%22name%22%2C%22value%22%3A%22a%26b%22%7D%5D",
  );
  assert.equal(encodeQuery({ tag: ["a", "b c"], purge: true }), "tag%5B%5D=a&tag%5B%5D=b+c&purge=true", "lists as the SDK sends them");
  assert.equal(encodeQuery({}), "");
});

test("a request carries the declared method and path under the base URL, a JSON or raw body, and the transport's headers", () => {
  const { url, init } = requestOf(
    operations.updateStream,
    { params: { id: "s/1" }, body: { name: "new" } },
    { baseUrl: "http://127.0.0.1:3000", headers: { authorization: "Bearer k" } },
  );
  assert.equal(url, "http://127.0.0.1:3000/api/stream/s%2F1");
  assert.equal(init.method, "PATCH");
  assert.equal(init.body, '{"name":"new"}');
  assert.deepEqual(init.headers, { accept: "application/json", "content-type": "application/json", authorization: "Bearer k" });

  const dashboard = requestOf(operations.listStreams, { query: { limit: 20, streamsonly: "1" } });
  assert.equal(dashboard.url, "/api/stream?limit=20&streamsonly=1", "no base URL: the page's own origin");
  assert.equal(dashboard.init.body, undefined);
  assert.deepEqual(dashboard.init.headers, { accept: "application/json" });

  const upload = requestOf(operations.createTextTrack, { params: { id: "a" }, query: { language: "fr" }, body: new RawBody("WEBVTT\n", "text/vtt") });
  assert.equal(upload.url, "/api/asset/a/text-tracks?language=fr");
  assert.equal(upload.init.body, "WEBVTT\n");
  assert.equal((upload.init.headers as Record<string, string>)["content-type"], "text/vtt");
});

test("a page's next cursor comes from the Link header's next URL", () => {
  assert.equal(nextCursor('</api/stream?limit=2&cursor=abc%3D%3D>; rel="next"'), "abc==");
  assert.equal(nextCursor('<http://host/api/webhook/w/log?cursor=x>; rel="next"'), "x");
  assert.equal(nextCursor(null), undefined);
  assert.equal(nextCursor('</api/stream?limit=2>; rel="prev"'), undefined);
});

test("a success is parsed with the declared response (a page for a paged operation; nothing for no content)", async () => {
  const got = await answerOf(operations.getStream, Response.json({ ...stream, unknownField: 1 }));
  assert.equal((got as { id: string }).id, "s1");
  assert.ok(!("unknownField" in (got as object)), "the schema's shape, as declared");
  const page = await answerOf(operations.listStreams, Response.json([stream], { headers: { link: '</api/stream?cursor=n1>; rel="next"' } }));
  assert.deepEqual(Object.keys(page as object), ["items", "nextCursor"]);
  assert.equal((page as { nextCursor: string }).nextCursor, "n1");
  assert.equal(await answerOf(operations.deleteStream, new Response(null, { status: 204 })), undefined);
  await assert.rejects(answerOf(operations.getStream, Response.json({ id: 1 })), { name: "ZodError" }, "an answer outside the declared shape fails");
});

test("a failed answer throws an ApiRequestError with the server's messages, or a generic one when its body has none", async () => {
  const refused = await answerOf(operations.getStream, Response.json({ errors: ["name: too long", "record: expected boolean"] }, { status: 422 })).catch(
    (e: unknown) => e,
  );
  assert.ok(refused instanceof ApiRequestError);
  assert.equal(refused.status, 422);
  assert.deepEqual(refused.messages, ["name: too long", "record: expected boolean"]);
  assert.equal(refused.message, "name: too long\nrecord: expected boolean");
  assert.equal(refused.name, "ApiRequestError");

  const html = new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway", headers: { "content-type": "text/html" } });
  await assert.rejects(answerOf(operations.getStream, html), { status: 502, messages: ["Request failed (502 Bad Gateway)"] });
  await assert.rejects(answerOf(operations.getStream, new Response("{}", { status: 500 })), { messages: ["Request failed (500 error)"] });
  await assert.rejects(answerOf(operations.getStream, Response.json({ errors: [] }, { status: 404 })), { messages: ["Request failed (404 error)"] });
});

test("a server that does not answer in time, or cannot be reached, fails with status 0; the caller's own abort stays an abort", async (t) => {
  const silent = http.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  t.after(() => silent.close());
  const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;

  await assert.rejects(call(operations.getHealth, {}, { baseUrl, timeoutMs: 200 }), {
    name: "ApiRequestError",
    status: 0,
    messages: ["The server did not answer within 0.2 s."],
  });
  const controller = new AbortController();
  const aborted = call(operations.getHealth, {}, { baseUrl, signal: controller.signal, timeoutMs: 10_000 });
  controller.abort();
  await assert.rejects(aborted, { name: "AbortError" });
  silent.closeAllConnections();

  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  await assert.rejects(call(operations.getHealth, {}, { baseUrl: `http://127.0.0.1:${port}` }), {
    status: 0,
    messages: ["Could not reach the server. Check your connection and try again."],
  });
});
