/**
 * Viewer tokens signed in the browser, for the dashboard's "sign a test token" helper: the
 * private key never leaves the page. Signing keys come as base64 of PEM (SPKI public, PKCS8
 * private, ES256 on P-256), the way the API returns them; WebCrypto's ECDSA signature is
 * already JWS's raw r||s form.
 */

const PEM = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/;
/** The fixed DER prefix of a P-256 SPKI public key, before its uncompressed point (04 || X || Y). */
const P256_SPKI_POINT_AT = 26;

const fromBase64 = (text: string) => Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A PEM's label and DER bytes, from the PEM itself or base64 of it (as the API gives keys). */
function readPem(text: string): { label: string; der: Uint8Array<ArrayBuffer> } | undefined {
  const trimmed = text.trim();
  let pem = trimmed;
  if (!PEM.test(pem)) {
    try {
      pem = new TextDecoder().decode(fromBase64(trimmed));
    } catch {
      return undefined;
    }
  }
  const match = PEM.exec(pem);
  if (!match) return undefined;
  try {
    return { label: match[1], der: fromBase64(match[2]) };
  } catch {
    return undefined;
  }
}

/** The public point (X || Y, 64 bytes, hex) of a signing key's publicKey, or undefined if it is not P-256 SPKI. */
export function publicPoint(publicKey: string): string | undefined {
  const pem = readPem(publicKey);
  if (pem?.label !== "PUBLIC KEY" || pem.der.length !== P256_SPKI_POINT_AT + 65 || pem.der[P256_SPKI_POINT_AT] !== 4) return undefined;
  return hex(pem.der.slice(P256_SPKI_POINT_AT + 1));
}

/** A short, stable way to tell keys apart on screen: the start of the public point, in groups of four. */
export function keyFingerprint(publicKey: string): string {
  const point = publicPoint(publicKey);
  return point ? point.slice(0, 16).match(/.{4}/g)!.join(" ") : publicKey.slice(-16);
}

/** Signing needs WebCrypto, which browsers give only to secure pages (HTTPS, or localhost). */
export const canSign = () => typeof crypto !== "undefined" && !!crypto.subtle;

export class ViewerTokenError extends Error {}

export interface SigningPrivateKey {
  key: CryptoKey;
  /** Its public point (hex), to find the signing key it belongs to. */
  point: string;
}

/** Reads a pasted private key (PKCS8 PEM, or base64 of it). */
export async function importPrivateKey(text: string): Promise<SigningPrivateKey> {
  const pem = readPem(text);
  if (!pem) throw new ViewerTokenError("That is not a private key: paste the PEM (or its base64) shown when the key was created.");
  if (pem.label !== "PRIVATE KEY") {
    throw new ViewerTokenError(
      pem.label === "EC PRIVATE KEY"
        ? "This is a SEC1 key (BEGIN EC PRIVATE KEY): convert it to PKCS8 (openssl pkcs8 -topk8 -nocrypt)."
        : `Expected a private key, got a "${pem.label}".`,
    );
  }
  let extractable: CryptoKey;
  try {
    extractable = await crypto.subtle.importKey("pkcs8", pem.der, { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  } catch {
    throw new ViewerTokenError("This private key cannot be read as an ES256 (P-256) key.");
  }
  const jwk = await crypto.subtle.exportKey("jwk", extractable);
  const point = hex(fromBase64(b64urlToB64(jwk.x!))) + hex(fromBase64(b64urlToB64(jwk.y!)));
  // Keep only a non-extractable copy around.
  const key = await crypto.subtle.importKey("pkcs8", pem.der, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  return { key, point };
}

const b64urlToB64 = (text: string) =>
  text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");

/** The claims of a viewer token: for one playback ID, naming the signing key by its public key. */
export interface ViewerClaims {
  sub: string;
  pub: string;
  action: "pull";
  iss: string;
  iat: number;
  exp: number;
}

export function viewerClaims(playbackId: string, publicKey: string, lifetimeS: number, now = Date.now()): ViewerClaims {
  const iat = Math.floor(now / 1000);
  return { sub: playbackId, pub: publicKey, action: "pull", iss: "Castline", iat, exp: iat + lifetimeS };
}

/** A compact ES256 JWT of the claims. */
export async function signViewerToken(privateKey: CryptoKey, claims: ViewerClaims): Promise<string> {
  const input = `${base64url(utf8(JSON.stringify({ alg: "ES256", typ: "JWT" })))}.${base64url(utf8(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, utf8(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}
