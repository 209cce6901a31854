import assert from "node:assert/strict";
import { test } from "node:test";
import { signUploadToken, verifyUploadToken } from "@/lib/assets/upload-token";
import { seal, unseal } from "@/lib/secrets";

process.env.AUTH_SECRET = "a-test-secret-that-is-long-enough-000000";

test("sealed job data opens to what was sealed, hides it, and refuses tampering", () => {
  const value = { custom: { url: "https://u:p@example.com/x?sig=1", headers: { authorization: "Bearer s3cret" } } };
  const sealed = seal(value);
  assert.doesNotMatch(sealed, /s3cret|example\.com/);
  assert.notEqual(seal(value), sealed, "a fresh IV each time");
  assert.deepEqual(unseal(sealed), value);
  const [prefix, version, iv, body] = sealed.split(".");
  const flipped = Buffer.from(body, "base64url");
  flipped[0] ^= 1;
  assert.throws(() => unseal([prefix, version, iv, flipped.toString("base64url")].join(".")));
  assert.throws(() => unseal("not sealed"));
});

test("sealed data does not open under another AUTH_SECRET", () => {
  const sealed = seal("x");
  const before = process.env.AUTH_SECRET;
  process.env.AUTH_SECRET = "another-secret-that-is-long-enough-11111";
  try {
    assert.throws(() => unseal(sealed));
  } finally {
    process.env.AUTH_SECRET = before;
  }
});

test("an upload token works for its asset until it expires, and not when altered", () => {
  const now = 1_800_000_000_000;
  const token = signUploadToken("asset-1", 60, now);
  assert.deepEqual(verifyUploadToken(token, now), { ok: true, assetId: "asset-1" });
  assert.match((verifyUploadToken(token, now + 61_000) as { reason: string }).reason, /expired/);
  const [id, expires, mac] = token.split(".");
  assert.equal(verifyUploadToken(`asset-2.${expires}.${mac}`, now).ok, false, "another asset");
  assert.equal(verifyUploadToken(`${id}.${Number(expires) + 3600}.${mac}`, now).ok, false, "a later expiry");
  assert.equal(verifyUploadToken(null, now).ok, false);
});
