import assert from "node:assert/strict";
import { test } from "node:test";
import { signUploadToken, verifyUploadToken } from "@/lib/assets/upload/token";
import { reloadConfig } from "@/lib/config";
import { seal, unseal } from "@/lib/secrets";
import { pendingAccountOf, signUpToken } from "@/lib/users/verification";

process.env.AUTH_SECRET = "a-test-secret-that-is-long-enough-000000";
reloadConfig();

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
  reloadConfig();
  try {
    assert.throws(() => unseal(sealed));
  } finally {
    process.env.AUTH_SECRET = before;
    reloadConfig();
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

test("a sign-up link opens to its account until it expires; job data sealed with the same secret does not open as one", () => {
  const account = { id: "u1", email: "ada@example.com", passwordHash: "scrypt$32768$8$1$salt$key", createdAt: Date.now(), expiresAt: Date.now() + 60_000 };
  const token = signUpToken(account);
  assert.doesNotMatch(token, /ada|scrypt/, "the address and the password hash do not show");
  assert.deepEqual(pendingAccountOf(token), account);
  assert.equal(pendingAccountOf(signUpToken({ ...account, expiresAt: Date.now() - 1 })), undefined, "expired");
  assert.equal(pendingAccountOf(seal(account)), undefined, "sealed for another purpose");
  assert.equal(pendingAccountOf("nonsense"), undefined);
});
