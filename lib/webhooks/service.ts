import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { webhooks } from "@/db/schema";
import { compact } from "@/lib/api/compact";
import { notFound } from "@/lib/api/errors";
import { pageWindow, toPage, type Page, type PageQuery } from "@/lib/api/pagination";
import { newId, newSecret } from "@/lib/ids";
import type { Webhook, WebhookInput } from "./schema";

type WebhookRow = typeof webhooks.$inferSelect;

export function serializeWebhook(row: WebhookRow): Webhook {
  const status = compact({ lastTriggeredAt: row.lastTriggeredAt, lastFailure: row.lastFailure });
  return {
    id: row.id,
    kind: "webhook",
    name: row.name,
    url: row.url,
    events: row.events,
    userId: row.userId,
    createdAt: row.createdAt,
    ...(Object.keys(status).length ? { status } : {}),
  };
}

export async function createWebhook(userId: string, input: WebhookInput) {
  const [row] = await db()
    .insert(webhooks)
    .values({ id: newId(), userId, ...input, sharedSecret: newSecret("whsec_"), createdAt: Date.now() })
    .returning();
  return { ...serializeWebhook(row), sharedSecret: row.sharedSecret };
}

export async function listWebhooks(userId: string, page: PageQuery): Promise<Page<Webhook>> {
  const window = pageWindow(webhooks, page);
  const rows = await db()
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.userId, userId), window.after))
    .orderBy(...window.orderBy)
    .limit(window.limit);
  const { items, next } = toPage(rows, page.limit);
  return { items: items.map(serializeWebhook), next };
}

const owned = (userId: string, id: string) => and(eq(webhooks.id, id), eq(webhooks.userId, userId));

export async function findWebhookRow(userId: string, id: string): Promise<WebhookRow | undefined> {
  return db().query.webhooks.findFirst({ where: owned(userId, id) });
}

export async function getWebhook(userId: string, id: string): Promise<Webhook> {
  const row = await findWebhookRow(userId, id);
  if (!row) throw notFound("webhook");
  return serializeWebhook(row);
}

export async function replaceWebhook(userId: string, id: string, input: WebhookInput): Promise<Webhook> {
  const [row] = await db().update(webhooks).set(input).where(owned(userId, id)).returning();
  if (!row) throw notFound("webhook");
  return serializeWebhook(row);
}

export async function deleteWebhook(userId: string, id: string): Promise<Webhook> {
  const [row] = await db().delete(webhooks).where(owned(userId, id)).returning();
  if (!row) throw notFound("webhook");
  return serializeWebhook(row);
}
