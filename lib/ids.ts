import { randomBytes, randomUUID } from "node:crypto";

/** Opaque object ids. */
export const newId = (): string => randomUUID();

const ALPHABET = "abcdefghijkmnopqrstuvwxyz23456789"; // no l/1/0 look-alikes

function randomString(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** 16 chars from a 33-letter alphabet: about 80 bits, unguessable for viewers' URLs. */
export const newPlaybackId = () => randomString(16);

/** Four groups of four, easy to read out of OBS settings; about 80 bits. */
export const newStreamKey = () => randomString(16).match(/.{4}/g)!.join("-");

/** Secrets handed to users once (API keys, webhook secrets): 192 bits. */
export const newSecret = (prefix = "") => prefix + randomBytes(24).toString("base64url");
