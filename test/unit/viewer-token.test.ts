import assert from "node:assert/strict";
import { createPrivateKey, generateKeyPairSync, verify } from "node:crypto";
import { test } from "node:test";
import { withoutToken, withToken } from "@/lib/client/playback";
import { importPrivateKey, keyFingerprint, publicPoint, signViewerToken, viewerClaims } from "@/lib/client/viewer-token";

/** A signing key as the API returns it: base64 of PEM, SPKI public and PKCS8 private (ES256). */
function signingKey() {
  const { publicKey, privateKey } = generateKeyPairSync("ec", {
    namedCurve: "P-256",
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicKey: Buffer.from(publicKey).toString("base64"), privateKey: Buffer.from(privateKey).toString("base64"), pem: { publicKey, privateKey } };
}

test("the dashboard's test token is an ES256 JWT that Node verifies with the signing key's public half", async () => {
  const key = signingKey();
  const imported = await importPrivateKey(key.privateKey);
  const claims = viewerClaims("abcd1234", key.publicKey, 600, 1_700_000_000_000);
  const token = await signViewerToken(imported.key, claims);
  const [header, payload, signature] = token.split(".");
  assert.deepEqual(JSON.parse(Buffer.from(header, "base64url").toString()), { alg: "ES256", typ: "JWT" });
  assert.deepEqual(JSON.parse(Buffer.from(payload, "base64url").toString()), {
    sub: "abcd1234",
    pub: key.publicKey,
    action: "pull",
    iss: "Castline",
    iat: 1_700_000_000,
    exp: 1_700_000_600,
  });
  assert.equal(
    verify("sha256", Buffer.from(`${header}.${payload}`), { key: key.pem.publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url")),
    true,
  );
  // Another key's public half does not verify it.
  assert.equal(
    verify("sha256", Buffer.from(`${header}.${payload}`), { key: signingKey().pem.publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url")),
    false,
  );
});

test("a pasted private key is matched to its signing key by the public point, PEM or base64 of it", async () => {
  const key = signingKey();
  const other = signingKey();
  assert.equal((await importPrivateKey(key.privateKey)).point, publicPoint(key.publicKey));
  assert.equal((await importPrivateKey(`  ${key.pem.privateKey}\n`)).point, publicPoint(key.publicKey));
  assert.notEqual((await importPrivateKey(key.privateKey)).point, publicPoint(other.publicKey));
  assert.match(keyFingerprint(key.publicKey), /^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  assert.notEqual(keyFingerprint(key.publicKey), keyFingerprint(other.publicKey));
});

test("what is not a PKCS8 P-256 private key is refused with a reason", async () => {
  await assert.rejects(importPrivateKey("not a key"), /not a private key/);
  const key = signingKey();
  await assert.rejects(importPrivateKey(key.publicKey), /Expected a private key/);
  const sec1 = createPrivateKey(key.pem.privateKey).export({ type: "sec1", format: "pem" }).toString();
  await assert.rejects(importPrivateKey(sec1), /SEC1/);
  const rsa = generateKeyPairSync("rsa", {
    modulusLength: 1024,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  await assert.rejects(importPrivateKey(rsa.privateKey), /ES256/);
});

test("media URLs are the same media whatever playback token they carry", () => {
  assert.equal(withoutToken("/hls/abc/index.m3u8?tkn=xyz"), "/hls/abc/index.m3u8");
  assert.equal(withoutToken("http://h/hls/abc/index.m3u8?a=1&tkn=xyz"), "http://h/hls/abc/index.m3u8?a=1");
  assert.equal(withoutToken("http://h/hls/abc/index.m3u8"), "http://h/hls/abc/index.m3u8");
  assert.equal(withToken("http://h/hls/abc/1.ts?tkn=old", "new"), "http://h/hls/abc/1.ts?tkn=new");
  // A URL that carries no token (another host's, say) is left alone.
  assert.equal(withToken("https://cdn.example/seg.ts?sig=1", "new"), "https://cdn.example/seg.ts?sig=1");
});
