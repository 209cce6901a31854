import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import { importSPKI, type CryptoKey } from "jose";
import { db } from "@/db/client";
import { signingKeys } from "@/db/schema";
import { compact } from "@/lib/compact";
import { invalid, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { MAX_SIGNING_KEYS, type SigningKey, type SigningKeyCreated, type SigningKeyPatch } from "./schema";

type SigningKeyRow = typeof signingKeys.$inferSelect;

/** lastSeen is to the minute: an admission writes at most once a minute per key. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

const b64 = (pem: string) => Buffer.from(pem).toString("base64");

export function serializeSigningKey(row: SigningKeyRow): SigningKey {
  return compact({
    id: row.id,
    name: row.name,
    userId: row.userId,
    createdAt: row.createdAt,
    lastSeen: row.lastSeen,
    publicKey: row.publicKey,
    disabled: row.disabled,
  }) as SigningKey;
}

/** A new ES256 key pair: the public half stored, the private half answered this once. */
export async function createSigningKey(userId: string, name: string | undefined): Promise<SigningKeyCreated> {
  const [{ n }] = await db().select({ n: count() }).from(signingKeys).where(eq(signingKeys.userId, userId));
  if (n >= MAX_SIGNING_KEYS) throw invalid(`an account has at most ${MAX_SIGNING_KEYS} signing keys: delete one first`);
  const { publicKey, privateKey } = await promisify(generateKeyPair)("ec", {
    namedCurve: "P-256",
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const createdAt = Date.now();
  const [row] = await db()
    .insert(signingKeys)
    .values({ id: newId(), userId, name: name ?? `Signing key ${new Date(createdAt).toISOString().slice(0, 10)}`, publicKey: b64(publicKey), createdAt })
    .returning();
  return { ...serializeSigningKey(row), privateKey: b64(privateKey) };
}

const owned = (userId: string, id: string) => and(eq(signingKeys.id, id), eq(signingKeys.userId, userId));

export async function listSigningKeys(userId: string): Promise<SigningKey[]> {
  const rows = await db().select().from(signingKeys).where(eq(signingKeys.userId, userId)).orderBy(desc(signingKeys.createdAt));
  return rows.map(serializeSigningKey);
}

export async function getSigningKey(userId: string, id: string): Promise<SigningKey> {
  const row = await db().query.signingKeys.findFirst({ where: owned(userId, id) });
  if (!row) throw notFound("signing key");
  return serializeSigningKey(row);
}

export async function updateSigningKey(userId: string, id: string, patch: SigningKeyPatch): Promise<void> {
  const set = compact(patch);
  const where = owned(userId, id);
  const [row] = Object.keys(set).length
    ? await db().update(signingKeys).set(set).where(where).returning({ id: signingKeys.id })
    : await db().select({ id: signingKeys.id }).from(signingKeys).where(where);
  if (!row) throw notFound("signing key");
}

export async function deleteSigningKey(userId: string, id: string): Promise<void> {
  const [row] = await db().delete(signingKeys).where(owned(userId, id)).returning({ id: signingKeys.id });
  if (!row) throw notFound("signing key");
}

/** Imported keys by their base64 PEM: importing costs more than verifying. */
const imported = new Map<string, Promise<CryptoKey>>();

/**
 * The owner's enabled key a JWT names in its `pub` claim, ready to verify with; undefined
 * when the owner has no such key, and "disabled" when it is switched off.
 */
export async function verificationKey(ownerId: string, publicKey: string): Promise<{ id: string; key: CryptoKey } | "disabled" | undefined> {
  const row = await db().query.signingKeys.findFirst({
    where: and(eq(signingKeys.userId, ownerId), eq(signingKeys.publicKey, publicKey)),
    columns: { id: true, disabled: true },
  });
  if (!row) return undefined;
  if (row.disabled) return "disabled";
  let key = imported.get(publicKey);
  if (!key) {
    key = importSPKI(Buffer.from(publicKey, "base64").toString("utf8"), "ES256");
    key.catch(() => imported.delete(publicKey));
    if (imported.size > 1000) imported.clear();
    imported.set(publicKey, key);
  }
  return { id: row.id, key: await key };
}

const lastSeenWritten = new Map<string, number>();

/** Records that a key admitted a viewer, to the minute (never waits: admissions are hot). */
export function markSigningKeySeen(id: string, now = Date.now()) {
  if (now - (lastSeenWritten.get(id) ?? 0) < LAST_SEEN_RESOLUTION_MS) return;
  lastSeenWritten.set(id, now);
  void db()
    .update(signingKeys)
    .set({ lastSeen: now })
    .where(and(eq(signingKeys.id, id), or(isNull(signingKeys.lastSeen), lt(signingKeys.lastSeen, now - LAST_SEEN_RESOLUTION_MS))))
    .catch((err) => console.error("signing key lastSeen:", err));
}
