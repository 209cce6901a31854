import assert from "node:assert/strict";
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { base58btc } from "multiformats/bases/base58";
import { CID } from "multiformats/cid";
import { deliver } from "@/lib/delivery";
import { addToIpfs, ipfsFile, nftMetadata, pinToService } from "@/lib/ipfs";
import { kuboCid } from "../support/unixfs";

// Blocks go to a scratch DATA_DIR of this file's own: config() reads it on first use, in the first test.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-ipfs-"));
process.env.DATA_DIR = dataDir;

const CHUNK = 262_144;
const MAX_LINKS = 174;
const MiB = 1024 * 1024;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The notes' reproducible files: `openssl enc -chacha20 -K sha256(seed) -iv 0 -in /dev/zero | head -c size`. */
function chacha(seed: string, size: number): Buffer {
  return createCipheriv("chacha20", sha256(Buffer.from(seed)), Buffer.alloc(16)).update(Buffer.alloc(size));
}

/** A buffer as a stream of uneven pieces, so chunking is the importer's job and not the caller's. */
async function* pieces(bytes: Buffer, size = 100_000) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A stand-in for Pinata's pinning API on loopback: records each request and answers as told. */
interface FakeRequest {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
async function startFakePinata() {
  const received: FakeRequest[] = [];
  let answer = { status: 200, body: "" };
  let pinned = 0;
  const server = http.createServer(async (req, res) => {
    const body = await readAll(req).catch(() => undefined);
    if (!body) return; // the client gave up mid-upload
    received.push({ url: req.url ?? "", headers: req.headers, body });
    pinned++;
    const ok = { IpfsHash: `QmFake${pinned}`, PinSize: body.length, Timestamp: new Date().toISOString(), isDuplicate: false };
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(answer.status === 200 ? JSON.stringify(ok) : answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answerWith: (status: number, body = "") => (answer = { status, body }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The parts of a multipart/form-data body, by field name. */
function formParts(body: Buffer, contentType: string): Map<string, { headers: string; data: Buffer }> {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
  assert.ok(boundary, contentType);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts = new Map<string, { headers: string; data: Buffer }>();
  let at = body.indexOf(delimiter);
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), start);
    assert.ok(next > 0, "every part is closed by a delimiter");
    const part = body.subarray(start + 2, next);
    const split = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, split).toString();
    parts.set(/name="([^"]+)"/.exec(headers)![1], { headers, data: part.subarray(split + 4) });
    at = next + 2;
  }
  return parts;
}

let fake: Awaited<ReturnType<typeof startFakePinata>>;
// Before any test: PINNING_API_URL has to be in the environment before config() first reads it.
before(async () => {
  fake = await startFakePinata();
  process.env.PINNING_API_URL = fake.url;
});
after(async () => {
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("addToIpfs: CIDs as kubo's `ipfs add` makes them", () => {
  // Files are made when their test runs, not all held at once.
  const cases: [string, () => Buffer, string?][] = [
    ["hello world (11 bytes, no newline)", () => Buffer.from("hello world"), "Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD"],
    ["an empty file", () => Buffer.alloc(0), "QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH"],
    ["1 byte", () => Buffer.from([0x2a])],
    ["exactly one chunk", () => chacha("one-chunk", CHUNK)],
    ["one chunk and a byte", () => chacha("one-chunk-plus", CHUNK + 1)],
    ["5 MiB chacha20 (vodproto-5MiB)", () => chacha("vodproto-5MiB", 5 * MiB), "QmRFDy2Vuhr86pPkMC1XSnp6ZGEtDjqpBYPGw1Qa5JD3na"],
    ["174 chunks: one full node", () => chacha("full-node", MAX_LINKS * CHUNK)],
    ["174 chunks and a byte: two levels", () => chacha("full-node-plus", MAX_LINKS * CHUNK + 1)],
    ["50 MiB chacha20 (vodproto-50MiB): two levels", () => chacha("vodproto-50MiB", 50 * MiB), "QmTcEwSSCksoV7K2bRqmcWscLLUmNDuaVQEuVwcP2Q4SQX"],
  ];
  for (const [name, make, kubo] of cases) {
    test(name, async () => {
      const bytes = make();
      const added = await addToIpfs(pieces(bytes));
      const expected = kuboCid(bytes);
      if (kubo) assert.equal(expected, kubo, "the reference encoder agrees with kubo");
      assert.deepEqual(added, { cid: expected, size: bytes.length });
    });
  }

  test("the chacha20 generator gives openssl's bytes (sha256 of the 5 MiB file, as openssl makes it)", () => {
    assert.equal(hex(sha256(chacha("vodproto-5MiB", 5 * MiB))), "4de60829175d6c423b09b213392fae9855b74ac54773b23476f11a3e9694bdd5");
  });
});

describe("ipfsFile: reading back from our blockstore", () => {
  const file = chacha("read-back", MAX_LINKS * CHUNK + 3 * CHUNK + 12_345); // two levels, a short last chunk
  let cid: string;
  before(async () => {
    cid = (await addToIpfs(pieces(file))).cid;
  });

  test("size and byte ranges across chunks, windows and subtrees", async () => {
    const found = await ipfsFile(cid);
    assert.ok(found);
    assert.equal(found.size, file.length);
    const subtree = MAX_LINKS * CHUNK;
    const ranges = [
      [0, 0],
      [0, 10],
      [CHUNK - 5, CHUNK + 5],
      [3 * MiB + 7, 13 * MiB - 1],
      [subtree - 100, subtree + 100],
      [file.length - 1, file.length - 1],
      [file.length - CHUNK - 17, file.length - 1],
    ];
    for (const [start, end] of ranges) {
      const got = await readAll(await found.open({ start, end }));
      assert.ok(got.equals(file.subarray(start, end + 1)), `bytes ${start}-${end}`);
    }
    assert.equal(hex(sha256(await readAll(await found.open({ start: 0, end: file.length - 1 })))), hex(sha256(file)));
  });

  test("the same file under its CIDv1 (dag-pb) name", async () => {
    assert.equal((await ipfsFile(CID.parse(cid).toV1().toString()))?.size, file.length);
  });

  test("unknown, invalid and foreign CIDs are undefined, at once", async () => {
    const absent = base58btc.baseEncode(Buffer.concat([Buffer.from([0x12, 0x20]), randomBytes(32)]));
    const ours = CID.parse(cid);
    const inputs = [
      absent, // well formed, not here
      "",
      "garbage",
      "Qm" + "x".repeat(44),
      "../../etc/passwd",
      "a".repeat(10_000),
      CID.createV1(0x55, ours.multihash).toString(), // raw codec over one of our blocks: not a file we added
      "bafkqaaa", // identity hash: content inside the CID, not in our store
      "bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy", // dag-cbor
    ];
    const started = Date.now();
    for (const input of inputs) assert.equal(await ipfsFile(input), undefined, input.slice(0, 60));
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });

  test("GET /ipfs/<cid>: ranges, type sniffing, 404", async () => {
    // The gateway as the launcher serves it: the delivery plane on a node:http server.
    const server = http.createServer((req, res) => void deliver(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const at = (c: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}/ipfs/${c}`, init);
    try {
      const whole = await at(cid);
      assert.equal(whole.status, 200);
      assert.equal(whole.headers.get("content-type"), "application/octet-stream");
      assert.equal(whole.headers.get("cache-control"), "public, max-age=31536000, immutable");
      assert.equal(hex(sha256(Buffer.from(await whole.arrayBuffer()))), hex(sha256(file)));

      const ranged = await at(cid, { headers: { range: "bytes=1000-1999" } });
      assert.equal(ranged.status, 206);
      assert.equal(ranged.headers.get("content-range"), `bytes 1000-1999/${file.length}`);
      assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(file.subarray(1000, 2000)));

      const head = await at(cid, { method: "HEAD" });
      assert.equal(head.headers.get("content-length"), String(file.length));
      // A copy still current is not sent again.
      const again = await at(cid, { headers: { "if-none-match": whole.headers.get("etag")! } });
      assert.equal(again.status, 304);

      const json = await addToIpfs(pieces(Buffer.from(JSON.stringify({ name: "x" }))));
      assert.equal((await at(json.cid)).headers.get("content-type"), "application/json");
      const mp4 = await addToIpfs(pieces(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), randomBytes(100)])));
      assert.equal((await at(mp4.cid)).headers.get("content-type"), "video/mp4");
      const empty = await addToIpfs(pieces(Buffer.alloc(0)));
      assert.equal((await at(empty.cid)).headers.get("content-length"), "0");

      assert.equal((await at("nonsense")).status, 404);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("nftMetadata", () => {
  test("defaults, deep merge, and no prototype pollution", async () => {
    const asset = { name: "Cat", playbackId: "abc123", videoCid: "QmVideo", downloadUrl: "https://cdn.example.com/asset/abc123/video" };
    assert.deepEqual(nftMetadata(asset), {
      name: "Cat",
      description: "Castline video Cat",
      animation_url: "ipfs://QmVideo",
      external_url: "https://cdn.example.com/asset/abc123/video",
      properties: { video: "ipfs://QmVideo", playbackId: "abc123" },
    });
    assert.equal("external_url" in nftMetadata({ ...asset, downloadUrl: undefined }), false);

    const extra = JSON.parse(
      '{"description":"mine","properties":{"artist":"me","tags":["a"],"__proto__":{"polluted":1}},"attributes":[{"trait_type":"x"}],"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
    );
    const merged = nftMetadata(asset, extra);
    assert.deepEqual(merged, {
      name: "Cat",
      description: "mine",
      animation_url: "ipfs://QmVideo",
      external_url: "https://cdn.example.com/asset/abc123/video",
      properties: { video: "ipfs://QmVideo", playbackId: "abc123", artist: "me", tags: ["a"] },
      attributes: [{ trait_type: "x" }],
    });
    assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.hasOwn(merged, "__proto__"), false);
    assert.equal(Object.hasOwn(merged.properties as object, "__proto__"), false);
  });
});

describe("pinToService (a fake Pinata on loopback)", () => {
  const bytes = randomBytes(3 * MiB + 17);
  const videoFile = path.join(dataDir, "video.mp4");
  const file = { name: "My video.mp4", size: bytes.length, open: async () => fs.createReadStream(videoFile) };
  const metadata = { name: "My video", animation_url: "ipfs://QmVideo" };
  before(() => fs.writeFileSync(videoFile, bytes));

  test("with a JWT: streamed multipart upload, then the metadata JSON", async () => {
    fake.received.length = 0;
    fake.answerWith(200);
    const pins = await pinToService({ jwt: "jwt-secret-value" }, file, metadata);
    assert.deepEqual(pins, { video: { cid: "QmFake1", size: fake.received[0].body.length }, metadata: { cid: "QmFake2", size: fake.received[1].body.length } });
    const [upload, json] = fake.received;

    assert.equal(upload.url, "/pinning/pinFileToIPFS");
    assert.equal(upload.headers.authorization, "Bearer jwt-secret-value");
    assert.equal(upload.headers.pinata_api_key, undefined);
    assert.equal(upload.headers["content-length"], String(upload.body.length), "a declared length, not chunked");
    const parts = formParts(upload.body, upload.headers["content-type"]!);
    assert.equal(hex(sha256(parts.get("file")!.data)), hex(sha256(bytes)));
    assert.match(parts.get("file")!.headers, /filename="My video.mp4"/);
    assert.deepEqual(JSON.parse(parts.get("pinataMetadata")!.data.toString()), { name: "My video.mp4" });
    assert.deepEqual(JSON.parse(parts.get("pinataOptions")!.data.toString()), { cidVersion: 0 });

    assert.equal(json.url, "/pinning/pinJSONToIPFS");
    assert.equal(json.headers.authorization, "Bearer jwt-secret-value");
    assert.equal(json.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(json.body.toString()), {
      pinataContent: metadata,
      pinataMetadata: { name: "My video.mp4 metadata" },
      pinataOptions: { cidVersion: 0 },
    });
  });

  test("with an API key pair, and names of our own", async () => {
    fake.received.length = 0;
    fake.answerWith(200);
    await pinToService({ apiKey: "key-value", apiSecret: "secret-value" }, file, metadata, { video: "v", metadata: "m" });
    for (const request of fake.received) {
      assert.equal(request.headers.pinata_api_key, "key-value");
      assert.equal(request.headers.pinata_secret_api_key, "secret-value");
      assert.equal(request.headers.authorization, undefined);
    }
    const parts = formParts(fake.received[0].body, fake.received[0].headers["content-type"]!);
    assert.deepEqual(JSON.parse(parts.get("pinataMetadata")!.data.toString()), { name: "v" });
    assert.deepEqual(JSON.parse(fake.received[1].body.toString()).pinataMetadata, { name: "m" });
  });

  test("a 401 is an Error with the status and the service's words, never the credentials", async () => {
    for (const credentials of [{ jwt: "jwt-secret-value" }, { apiKey: "key-value", apiSecret: "secret-value" }]) {
      const secrets = Object.values(credentials);
      // A service that echoes what it was sent: the message must still not carry the secrets.
      fake.answerWith(401, JSON.stringify({ error: { reason: "INVALID_CREDENTIALS", details: `bad credentials ${secrets.join(" / ")}` } }));
      const err: Error = await pinToService(credentials, file, metadata).then(
        () => assert.fail("resolved"),
        (e) => e,
      );
      assert.match(err.message, /401/);
      assert.match(err.message, /INVALID_CREDENTIALS/);
      for (const secret of secrets) assert.equal(err.message.includes(secret), false, err.message);
    }
  });

  test("a file shorter than declared fails instead of sending a corrupt form", async () => {
    fake.answerWith(200);
    await assert.rejects(pinToService({ jwt: "j" }, { ...file, size: bytes.length + 1 }, metadata), /declared/);
  });
});
