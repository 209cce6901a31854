import { createHash } from "node:crypto";

/** kubo's defaults: 256 KiB chunks, at most 174 links per node. */
const CHUNK = 262_144;
const MAX_LINKS = 174;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();

/**
 * The CID kubo's `ipfs add` gives, written from the specs (protobuf, dag-pb, UnixFS,
 * multihash, CIDv0) without the IPFS libraries: what addToIpfs is checked against.
 */
export const kuboCid = (() => {
  const varint = (n: number) => {
    const out: number[] = [];
    for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
    out.push(n);
    return Buffer.from(out);
  };
  const key = (field: number, wireType: 0 | 2) => varint((field << 3) | wireType);
  const uint = (field: number, n: number) => Buffer.concat([key(field, 0), varint(n)]);
  const bytes = (field: number, b: Uint8Array) => Buffer.concat([key(field, 2), varint(b.length), b]);

  // UnixFS Data: Type(1) = File(2), Data(2) only when there are bytes, filesize(3), blocksizes(4), repeated unpacked.
  const unixfsFile = (data: Uint8Array, fileSize: number, blockSizes: number[]) =>
    Buffer.concat([uint(1, 2), ...(data.length ? [bytes(2, data)] : []), uint(3, fileSize), ...blockSizes.map((s) => uint(4, s))]);

  interface Link {
    multihash: Buffer;
    /** Bytes of the whole subtree's blocks. */
    tsize: number;
    /** Bytes of file content under it. */
    fileSize: number;
  }
  // PBNode: Links(2) come before Data(1) in dag-pb's canonical order; PBLink: Hash(1), Name(2) = "", Tsize(3).
  const node = (links: Link[], data: Buffer) => {
    const block = Buffer.concat([
      ...links.map((l) => bytes(2, Buffer.concat([bytes(1, l.multihash), bytes(2, Buffer.alloc(0)), uint(3, l.tsize)]))),
      bytes(1, data),
    ]);
    const multihash = Buffer.concat([Buffer.from([0x12, 0x20]), sha256(block)]); // sha2-256, 32 bytes
    return { multihash, block };
  };

  const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const base58btc = (b: Buffer) => {
    let n = BigInt(`0x${b.toString("hex")}`);
    let out = "";
    for (; n > 0n; n /= 58n) out = BASE58[Number(n % 58n)] + out;
    for (const byte of b) {
      if (byte) break;
      out = `1${out}`;
    }
    return out;
  };

  return (file: Buffer) => {
    let level: Link[] = [];
    for (let at = 0; at === 0 || at < file.length; at += CHUNK) {
      const chunk = file.subarray(at, at + CHUNK);
      const leaf = node([], unixfsFile(chunk, chunk.length, []));
      level.push({ multihash: leaf.multihash, tsize: leaf.block.length, fileSize: chunk.length });
    }
    // Balanced layout: group MAX_LINKS at a time, level by level, until one root is left.
    while (level.length > 1) {
      const parents: Link[] = [];
      for (let i = 0; i < level.length; i += MAX_LINKS) {
        const children = level.slice(i, i + MAX_LINKS);
        const fileSize = children.reduce((sum, c) => sum + c.fileSize, 0);
        const parent = node(
          children,
          unixfsFile(
            Buffer.alloc(0),
            fileSize,
            children.map((c) => c.fileSize),
          ),
        );
        parents.push({ multihash: parent.multihash, tsize: parent.block.length + children.reduce((sum, c) => sum + c.tsize, 0), fileSize });
      }
      level = parents;
    }
    return base58btc(level[0].multihash);
  };
})();
