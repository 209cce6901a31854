import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import { test } from "node:test";
import { startStun, stunAnswer } from "@/lib/delivery/stun";

/** A STUN request of `method` (Binding 1, TURN's Allocate 3) as a browser sends it, with its transaction id. */
function request(method: number, attributes = Buffer.alloc(0)): { packet: Buffer; transaction: Buffer } {
  const transaction = randomBytes(12);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(method, 0);
  header.writeUInt16BE(attributes.length, 2);
  header.writeUInt32BE(0x2112a442, 4);
  transaction.copy(header, 8);
  return { packet: Buffer.concat([header, attributes]), transaction };
}

/** The address a Binding success response maps to (its XOR-MAPPED-ADDRESS, decoded as RFC 8489 says). */
function mappedAddress(answer: Buffer): { address: string; port: number } {
  assert.equal(answer.readUInt16BE(0), 0x0101, "a Binding success response");
  assert.equal(answer.readUInt16BE(24 - 4), 0x0020, "XOR-MAPPED-ADDRESS");
  const value = answer.subarray(24);
  const key = answer.subarray(4, 20);
  const port = value.readUInt16BE(2) ^ 0x2112;
  const bytes = [...value.subarray(4, value[1] === 1 ? 8 : 20)].map((b, i) => b ^ key[i]);
  const address = value[1] === 1 ? bytes.join(".") : Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16)).join(":");
  return { address, port };
}

test("STUN: a Binding request learns the address it came from (IPv4, IPv6, IPv4-mapped), in its own transaction", () => {
  const { packet, transaction } = request(0x0001);
  const v4 = stunAnswer(packet, "203.0.113.7", 54321)!;
  assert.deepEqual(v4.subarray(8, 20), transaction);
  assert.equal(v4.readUInt16BE(2), v4.length - 20);
  assert.deepEqual(mappedAddress(v4), { address: "203.0.113.7", port: 54321 });
  assert.deepEqual(mappedAddress(stunAnswer(packet, "::ffff:198.51.100.2", 3478)!), { address: "198.51.100.2", port: 3478 });
  assert.deepEqual(mappedAddress(stunAnswer(packet, "2001:db8::1", 40000)!), { address: "2001:db8:0:0:0:0:0:1", port: 40000 });
  // Chrome adds attributes (its software name, a fingerprint): still a request.
  assert.ok(stunAnswer(request(0x0001, Buffer.from([0x80, 0x22, 0, 4, 1, 2, 3, 4])).packet, "203.0.113.7", 1));
});

test("STUN: TURN's Allocate is refused at once (401 with a realm and a nonce, which Chrome takes as an answer); anything else gets nothing", () => {
  const answer = stunAnswer(request(0x0003).packet, "203.0.113.7", 1)!;
  assert.equal(answer.readUInt16BE(0), 0x0113, "an Allocate error response");
  assert.equal(answer.readUInt16BE(2), answer.length - 20);
  const attributes = new Map<number, Buffer>();
  for (let at = 20; at < answer.length; at += 4 + Math.ceil(answer.readUInt16BE(at + 2) / 4) * 4)
    attributes.set(answer.readUInt16BE(at), answer.subarray(at + 4, at + 4 + answer.readUInt16BE(at + 2)));
  const error = attributes.get(0x0009)!;
  assert.equal(error[2] * 100 + error[3], 401);
  assert.ok(attributes.get(0x0014)?.length && attributes.get(0x0015)?.length, "REALM and NONCE");
  const binding = request(0x0001).packet;
  for (const [what, packet] of [
    ["too short", binding.subarray(0, 19)],
    ["not STUN (an RTP packet)", Buffer.concat([Buffer.from([0x80, 0x60]), randomBytes(30)])],
    ["a wrong cookie", Buffer.concat([binding.subarray(0, 4), Buffer.from([1, 2, 3, 4]), binding.subarray(8)])],
    ["a length that lies", Buffer.concat([binding, Buffer.alloc(4)])],
    ["a response, not a request", Buffer.concat([Buffer.from([0x01, 0x01]), binding.subarray(2)])],
    ["oversized", request(0x0001, Buffer.alloc(2048)).packet],
  ] as const)
    assert.equal(stunAnswer(packet, "203.0.113.7", 1), undefined, what);
});

test("STUN over UDP on loopback: answered; a port already taken is left to its owner", async () => {
  const stun = (await startStun(0, "127.0.0.1"))!;
  const client = dgram.createSocket("udp4");
  try {
    await new Promise<void>((resolve) => client.bind(0, "127.0.0.1", resolve));
    const answered = new Promise<Buffer>((resolve) => client.once("message", resolve));
    client.send(request(0x0001).packet, stun.port, "127.0.0.1");
    assert.deepEqual(mappedAddress(await answered), { address: "127.0.0.1", port: client.address().port });
    assert.equal(await startStun(stun.port, "127.0.0.1"), undefined);
  } finally {
    client.close();
    stun.close();
  }
});
