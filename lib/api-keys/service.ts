import { createHash } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { newId, newSecret } from "@/lib/ids";
import type { ApiKey, ApiKeyCreate } from "./schema";

const KEY_PREFIX = "cl_";
/** lastUsedAt is written at most this often per key, to keep writes off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

type ApiKeyRow = typeof apiKeys.$inferSelect;

function serialize(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt,
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt } : {}),
    ...(row.allowedOrigins?.length ? { allowedOrigins: row.allowedOrigins } : {}),
  };
}

export async function createApiKey(userId: string, { name, allowedOrigins }: ApiKeyCreate) {
  const key = newSecret(KEY_PREFIX);
  const [row] = await db()
    .insert(apiKeys)
    .values({
      id: newId(),
      userId,
      name,
      tokenHash: hashKey(key),
      prefix: key.slice(0, 8),
      createdAt: Date.now(),
      allowedOrigins: allowedOrigins ? [...new Set(allowedOrigins)] : null,
    })
    .returning();
  return { ...serialize(row), key };
}

export async function listApiKeys(userId: string): Promise<ApiKey[]> {
  const rows = await db().select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(serialize);
}

export async function revokeApiKey(userId: string, id: string) {
  const deleted = await db()
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (!deleted.length) throw notFound("API key");
}

export interface KeyHolder {
  keyId: string;
  userId: string;
  /** Browser origins the key may be used from (CORS-enabled key), or none. */
  allowedOrigins: string[];
}

/** Who an API key belongs to, or undefined. Records when the key was last used. */
export async function keyHolder(key: string): Promise<KeyHolder | undefined> {
  if (!key.startsWith(KEY_PREFIX)) return undefined;
  const tokenHash = hashKey(key);
  const [row] = await db()
    .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt, allowedOrigins: apiKeys.allowedOrigins })
    .from(apiKeys)
    .where(eq(apiKeys.tokenHash, tokenHash))
    .limit(1);
  if (!row) return undefined;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    db()
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_RESOLUTION_MS))))
      .catch((err) => console.error("recording API key use failed:", err.message));
  }
  return { keyId: row.id, userId: row.userId, allowedOrigins: row.allowedOrigins ?? [] };
}
