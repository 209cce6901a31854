import assert from "node:assert/strict";
import { test } from "node:test";
import { compareBy, decodeCursor, encodeCursor, toPage } from "@/db/pagination";
import { OrderParam } from "@/lib/api/list-query";

test("a cursor round-trips the position of the last item, and garbage decodes to nothing", () => {
  const position = { key: 1_795_316_498_117, id: "3f0c1a2e-aaaa-4bbb-8ccc-0123456789ab" };
  assert.deepEqual(decodeCursor(encodeCursor(position)), position);
  assert.equal(Buffer.from(encodeCursor(position), "base64url").toString(), `${position.key}:${position.id}`, "newest-first cursors keep their old form");
  for (const bad of [
    "",
    "%%%",
    Buffer.from("x:abc").toString("base64url"),
    Buffer.from("1:").toString("base64url"),
    Buffer.from("1:a b").toString("base64url"),
    Buffer.from(`1e400:a`).toString("base64url"),
  ]) {
    assert.equal(decodeCursor(bad), undefined, bad);
  }
});

test("a cursor of another order is refused, and an ordered cursor round-trips its key", () => {
  const lastSeen = { by: "lastSeen", desc: true };
  const oldest = { by: "createdAt", desc: false };
  const position = { key: 12.5, id: "abc" };
  assert.deepEqual(decodeCursor(encodeCursor(position, lastSeen), lastSeen), position);
  assert.equal(decodeCursor(encodeCursor(position, lastSeen), oldest), undefined);
  assert.equal(decodeCursor(encodeCursor(position, lastSeen)), undefined);
  assert.equal(decodeCursor(encodeCursor({ key: 1, id: "abc" }), lastSeen), undefined);
  for (const bad of ['["lastSeen",true,"1","abc"]', '["lastSeen",true,1,"a b"]', '["lastSeen",true,1]', "{}", "[", '["lastSeen",true,null,"abc"]']) {
    assert.equal(decodeCursor(Buffer.from(bad).toString("base64url"), lastSeen), undefined, bad);
  }
});

test("order=<key>-<true|false> reads as key and direction, newest first by default", () => {
  const order = OrderParam(["createdAt", "videoSpec.duration"]);
  assert.deepEqual(order.parse(undefined), { by: "createdAt", desc: true });
  assert.deepEqual(order.parse("videoSpec.duration-false"), { by: "videoSpec.duration", desc: false });
  assert.equal(order.safeParse("lastSeen-true").success, false);
  assert.equal(order.safeParse("createdAt").success, false);
});

test("a page fetched with one row more says where the next page starts", () => {
  const byCreatedAt = (row: { createdAt: number; id: string }) => ({ key: row.createdAt, id: row.id });
  const rows = [3, 2, 1].map((n) => ({ createdAt: n, id: `id${n}` }));
  assert.deepEqual(toPage(rows, 3, byCreatedAt), { items: rows });
  const page = toPage(rows, 2, byCreatedAt);
  assert.deepEqual(page.items, rows.slice(0, 2));
  assert.deepEqual(decodeCursor(page.next!), { key: 2, id: "id2" });
});

test("merged rows sort by key then id, in either direction", () => {
  const rows = [
    { key: 1, id: "b" },
    { key: 2, id: "a" },
    { key: 1, id: "a" },
  ];
  assert.deepEqual(
    [...rows].sort(compareBy({ by: "k", desc: false })).map((r) => `${r.key}${r.id}`),
    ["1a", "1b", "2a"],
  );
  assert.deepEqual(
    [...rows].sort(compareBy({ by: "k", desc: true })).map((r) => `${r.key}${r.id}`),
    ["2a", "1b", "1a"],
  );
});
