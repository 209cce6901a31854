import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeCursor, encodeCursor, toPage } from "@/db/pagination";

test("a cursor round-trips the position of the last item, and garbage decodes to nothing", () => {
  const position = { createdAt: 1_795_316_498_117, id: "3f0c1a2e-aaaa-4bbb-8ccc-0123456789ab" };
  assert.deepEqual(decodeCursor(encodeCursor(position)), position);
  for (const bad of ["", "%%%", Buffer.from("x:abc").toString("base64url"), Buffer.from("1:").toString("base64url"), Buffer.from("1:a b").toString("base64url"), Buffer.from(`1e400:a`).toString("base64url")]) {
    assert.equal(decodeCursor(bad), undefined, bad);
  }
});

test("a page fetched with one row more says where the next page starts", () => {
  const rows = [3, 2, 1].map((n) => ({ createdAt: n, id: `id${n}` }));
  assert.deepEqual(toPage(rows, 3), { items: rows });
  const page = toPage(rows, 2);
  assert.deepEqual(page.items, rows.slice(0, 2));
  assert.deepEqual(decodeCursor(page.next!), { createdAt: 2, id: "id2" });
});
