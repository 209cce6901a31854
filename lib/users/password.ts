import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { config } from "@/lib/config";

/**
 * scrypt (memory-hard KDF, built into Node). Parameters are stored with each hash, so hashes made
 * at another PASSWORD_HASH_COST still verify.
 */
const params = () => ({ N: 2 ** config().PASSWORD_HASH_COST, r: 8, p: 1 });
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { ...opts, maxmem: 128 * opts.N! * opts.r! * 2 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const encode = ({ N, r, p }: ScryptOptions, salt: Buffer, key: Buffer) => ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const opts = params();
  return encode(opts, salt, await derive(password, salt, opts));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt") return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: +N, r: +r, p: +p });
  return timingSafeEqual(expected, actual);
}

/**
 * A hash no password matches, at the cost new hashes are made with: checking a password against
 * it for an unknown address takes as long as for a known one (no timing probe tells them apart).
 */
export const unmatchableHash = () => encode(params(), Buffer.alloc(16), Buffer.alloc(KEY_LENGTH));
