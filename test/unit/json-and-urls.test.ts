import assert from "node:assert/strict";
import { test } from "node:test";
import { JSON_LIMITS, JsonObject } from "@/lib/json";
import { withoutCredentials } from "@/lib/net/http-url";

const nest = (depth: number): unknown => (depth === 0 ? 1 : { a: nest(depth - 1) });

test("free-form JSON is bounded in depth and size, checked without recursion", () => {
  assert.equal(JsonObject.safeParse(nest(JSON_LIMITS.depth - 1)).success, true);
  assert.equal(JsonObject.safeParse(nest(JSON_LIMITS.depth + 1)).success, false);
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(JsonObject.safeParse({ deep }).success, false, "100,000 levels: refused, no stack overflow");
  const wide = Object.fromEntries(Array.from({ length: JSON_LIMITS.values + 1 }, (_, i) => [`k${i}`, i]));
  assert.equal(JsonObject.safeParse(wide).success, false);
  assert.equal(JsonObject.safeParse({ name: "x", properties: { tags: ["a", "b"], n: null } }).success, true);
});

test("URLs are shown back without userinfo or query", () => {
  assert.equal(withoutCredentials("https://user:pass@example.com:8443/a/b.mp4?sig=1#f"), "https://example.com:8443/a/b.mp4?…");
  assert.equal(withoutCredentials("https://example.com/a"), "https://example.com/a");
});
