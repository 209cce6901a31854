import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "@/lib/secrets";

/**
 * The capability in a local pre-signed upload URL: "<assetId>.<expires s>.<mac>",
 * an HMAC with the deployment's secret over the asset id and the expiry, so a URL
 * works for that one asset until it expires and cannot be altered to fit another.
 */
const key = () => derivedKey("castline upload url v1");

const mac = (assetId: string, expires: number) => createHmac("sha256", key()).update(`${assetId}.${expires}`).digest("base64url");

export function signUploadToken(assetId: string, ttlS: number, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + ttlS;
  return `${assetId}.${expires}.${mac(assetId, expires)}`;
}

export type UploadTokenCheck = { ok: true; assetId: string } | { ok: false; reason: string };

export function verifyUploadToken(token: string | null, now = Date.now()): UploadTokenCheck {
  const match = /^([\w-]{1,64})\.(\d{1,12})\.([\w-]{43})$/.exec(token ?? "");
  if (!match) return { ok: false, reason: "this upload URL is not valid" };
  const [, assetId, expiresText] = match;
  const expires = Number(expiresText);
  const given = Buffer.from(match[3]);
  const expected = Buffer.from(mac(assetId, expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "this upload URL is not valid (its signature does not match)" };
  }
  if (expires * 1000 < now) return { ok: false, reason: "this upload URL has expired: request a new one" };
  return { ok: true, assetId };
}
