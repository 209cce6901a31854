import dgram from "node:dgram";
import net from "node:net";

/**
 * A STUN responder (RFC 8489's Binding) on the app's host, port 3478 by default (STUN_PORT).
 * Livepeer's WebRTC clients (`@livepeer/core-web`, behind `@livepeer/react`'s Player and
 * Broadcast) take `stun:<the URL's host>` and `turn:<the URL's host>` as their ICE servers and
 * wait up to 5 s for ICE gathering before they send their offer: where nothing answers there,
 * every start waits those 5 s. Answered, gathering ends at once: a Binding request gets the
 * address it came from (the browser's public address: its server-reflexive candidate), and a
 * TURN request is refused (TURN is coturn's job where an operator wants it: docs/webrtc.md). Chrome
 * takes a refusal only as a TURN server's challenge (401 with a realm and a nonce: it then sends
 * its credentials) and the same 401 again (it gives up); a plain error it ignores, resending until
 * its gathering times out.
 * Nothing else is answered, and an answer is no larger than the request plus one attribute.
 */

const MAGIC_COOKIE = 0x2112a442;
const HEADER_BYTES = 20;
const BINDING = 0x001;
const XOR_MAPPED_ADDRESS = 0x0020;
const ERROR_CODE = 0x0009;
const REALM = 0x0014;
const NONCE = 0x0015;
/** Longer than any request a client sends to learn its address. */
const MAX_REQUEST_BYTES = 1024;

/** A request's method, or undefined when the datagram is not a STUN request. */
function requestMethod(packet: Buffer): number | undefined {
  if (packet.length < HEADER_BYTES || packet.length > MAX_REQUEST_BYTES) return undefined;
  const type = packet.readUInt16BE(0);
  if (type & 0xc000) return undefined; // the two first bits of every STUN message are 0
  if (packet.readUInt32BE(4) !== MAGIC_COOKIE) return undefined;
  if (packet.readUInt16BE(2) !== packet.length - HEADER_BYTES || packet.length % 4) return undefined;
  if (type & 0x0110) return undefined; // not a request (an indication or a response)
  return (type & 0x000f) | ((type & 0x00e0) >> 1) | ((type & 0x3e00) >> 2);
}

const messageType = (method: number, cls: "success" | "error") =>
  (method & 0x000f) | ((method & 0x0070) << 1) | ((method & 0x0f80) << 2) | (cls === "success" ? 0x0100 : 0x0110);

function attribute(type: number, value: Buffer): Buffer {
  const out = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  out.writeUInt16BE(type, 0);
  out.writeUInt16BE(value.length, 2);
  value.copy(out, 4);
  return out;
}

function message(type: number, transaction: Buffer, attributes: Buffer[]): Buffer {
  const body = Buffer.concat(attributes);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(body.length, 2);
  header.writeUInt32BE(MAGIC_COOKIE, 4);
  transaction.copy(header, 8);
  return Buffer.concat([header, body]);
}

/** The refusal of every TURN request: 401, with the realm and nonce a challenge has. */
const TURN_REFUSED = [
  attribute(ERROR_CODE, Buffer.concat([Buffer.from([0, 0, 4, 1]), Buffer.from("TURN is not offered here")])),
  attribute(REALM, Buffer.from("castline")),
  attribute(NONCE, Buffer.from("not-a-turn-server")),
];

/** The answer to one datagram from `address`:`port`, or undefined when it gets none. */
export function stunAnswer(packet: Buffer, address: string, port: number): Buffer | undefined {
  const method = requestMethod(packet);
  if (method === undefined) return undefined;
  const transaction = packet.subarray(8, 20);
  if (method !== BINDING) return message(messageType(method, "error"), transaction, TURN_REFUSED);
  const mapped = address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
  const v4 = net.isIPv4(mapped);
  const value = Buffer.alloc(v4 ? 8 : 20);
  value[1] = v4 ? 0x01 : 0x02;
  value.writeUInt16BE(port ^ (MAGIC_COOKIE >>> 16), 2);
  const key = Buffer.concat([packet.subarray(4, 8), transaction]);
  const bytes = v4 ? Buffer.from(mapped.split(".").map(Number)) : ipv6Bytes(mapped);
  for (let i = 0; i < bytes.length; i++) value[4 + i] = bytes[i] ^ key[i];
  return message(messageType(BINDING, "success"), transaction, [attribute(XOR_MAPPED_ADDRESS, value)]);
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ""] = address.split("%")[0].split("::");
  const groups = (part: string) => (part ? part.split(":") : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...Array(address.includes("::") ? missing : 0).fill("0"), ...groups(tail)];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(Number.parseInt(g, 16) || 0, i * 2));
  return out;
}

/** Answers STUN on `port` (UDP); undefined, said once, when the port is taken (coturn's, or another instance's on this host). */
export async function startStun(port: number, host: string): Promise<{ port: number; close(): void } | undefined> {
  const socket = dgram.createSocket(net.isIPv6(host) ? "udp6" : "udp4");
  socket.on("message", (packet, from) => {
    const answer = stunAnswer(packet, from.address, from.port);
    if (answer) socket.send(answer, from.port, from.address);
  });
  const bound = await new Promise<boolean>((resolve) => {
    socket.once("error", () => resolve(false));
    socket.bind(port, host, () => resolve(true));
  });
  if (!bound) {
    socket.close();
    console.log(`STUN: UDP port ${port} is taken (coturn, or another instance on this host answers): not answering STUN here`);
    return undefined;
  }
  socket.on("error", () => {}); // a send to a peer that went away
  return { port: socket.address().port, close: () => socket.close() };
}
