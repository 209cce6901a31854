import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { test } from "node:test";
import { BodyTooLarge, bodyPrefix, capped, readCapped, requestBody } from "@/lib/bounded-body";

const KiB = 1024;

/** A body of `chunks` chunks of `size` bytes that tells how many were pulled and whether it was ended early. */
function source(chunks: number, size = KiB) {
  const seen = { pulled: 0, ended: false };
  async function* body() {
    try {
      for (let i = 0; i < chunks; i++) {
        seen.pulled++;
        yield new Uint8Array(size).fill(65 + (i % 26));
      }
    } finally {
      seen.ended = true;
    }
  }
  return { body: body(), seen };
}

test("a body within its limit is read whole, up to the last byte allowed", async () => {
  const { body } = source(4);
  const bytes = await readCapped(body, 4 * KiB, "the body");
  assert.equal(bytes.length, 4 * KiB);
  assert.equal(bytes.toString("latin1", 3 * KiB, 3 * KiB + 1), "D");
  assert.equal((await readCapped(null, 10, "no body")).length, 0);
});

test("a body past its limit fails at the first byte over, and no more of it is pulled", async () => {
  const { body, seen } = source(1000);
  await assert.rejects(readCapped(body, 4 * KiB + 1, "the request body"), (err: unknown) => {
    assert.ok(err instanceof BodyTooLarge);
    assert.equal(err.kind, "too-large");
    assert.equal(err.message, `the request body is over ${4 * KiB + 1} bytes`);
    return true;
  });
  assert.equal(seen.pulled, 5, "stopped at the chunk that went over");
  assert.ok(seen.ended, "the body's stream was ended");
});

test("a declared length over the limit is refused before any byte is read", async () => {
  const { body, seen } = source(1);
  await assert.rejects(readCapped(body, KiB, "the file", "1048576"), BodyTooLarge);
  assert.equal(seen.pulled, 0);
});

test("a request's body is counted as it streams, with or without Content-Length", async () => {
  const chunked = (chunks: number) =>
    new Request("http://localhost/", {
      method: "POST",
      body: Readable.toWeb(Readable.from(source(chunks).body)) as ReadableStream,
      duplex: "half",
    } as RequestInit);
  assert.equal((await requestBody(chunked(3), 3 * KiB)).length, 3 * KiB);
  await assert.rejects(requestBody(chunked(1_000_000), 64 * KiB), /the request body is over 65536 bytes/);
  const declared = new Request("http://localhost/", { method: "POST", body: "x".repeat(10), headers: { "content-length": "10" } });
  await assert.rejects(requestBody(declared, 9), BodyTooLarge);
});

test("capped passes a stream on chunk by chunk and fails past its limit", async () => {
  const passed: number[] = [];
  const { body } = source(10);
  await assert.rejects(async () => {
    for await (const chunk of capped(body, 3 * KiB, "the file")) passed.push(chunk.length);
  }, /the file is over 3072 bytes/);
  assert.deepEqual(passed, [KiB, KiB, KiB]);
});

test("a prefix keeps its first bytes and stops reading there; a short answer is read to its end", async () => {
  const long = source(1000);
  const prefix = await bodyPrefix(long.body, 1500);
  assert.equal(prefix.length, 1500);
  assert.equal(prefix.toString("latin1", 1023, 1025), "AB");
  assert.equal(long.seen.pulled, 2);
  assert.ok(long.seen.ended);
  const short = source(2);
  assert.equal((await bodyPrefix(short.body, 64 * KiB)).length, 2 * KiB);
  assert.equal(short.seen.pulled, 2);
});
