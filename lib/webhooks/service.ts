import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { compact } from "@/lib/compact";
import { invalid, notFound } from "@/lib/errors";
import { pageOf, type Page } from "@/db/pagination";
import type { PageQuery } from "@/lib/api/list-query";
import { newId, newSecret } from "@/lib/ids";
import type { WebhookEventData } from "@/lib/jobs/events";
import { privateHostReason } from "@/lib/net/guard";
import { ACCESS_CONTROL_EVENT, type WebhookEvent } from "./events";
import { requestDelivery } from "./notify";
import { sampleEvent } from "./samples";
import type { Webhook, WebhookDelivery, WebhookInput } from "./schema";

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

async function refusePrivateUrl(url: string) {
  const reason = await privateHostReason(url);
  if (reason) throw invalid(`url: ${reason}; webhooks must reach a public address`);
}

export async function createWebhook(userId: string, input: WebhookInput) {
  await refusePrivateUrl(input.url);
  const [row] = await db()
    .insert(webhooks)
    .values({ id: newId(), userId, ...input, sharedSecret: newSecret("whsec_"), createdAt: Date.now() })
    .returning();
  return { ...serializeWebhook(row), sharedSecret: row.sharedSecret };
}

export async function listWebhooks(userId: string, page: PageQuery): Promise<Page<Webhook>> {
  return pageOf(webhooks, eq(webhooks.userId, userId), page, serializeWebhook);
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
  await refusePrivateUrl(input.url);
  const [row] = await db().update(webhooks).set(input).where(owned(userId, id)).returning();
  if (!row) throw notFound("webhook");
  return serializeWebhook(row);
}

export async function deleteWebhook(userId: string, id: string): Promise<Webhook> {
  const [row] = await db().delete(webhooks).where(owned(userId, id)).returning();
  if (!row) throw notFound("webhook");
  return serializeWebhook(row);
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

function serializeDelivery(row: DeliveryRow): WebhookDelivery {
  return compact({
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    event: row.event,
    createdAt: row.createdAt,
    request: { url: row.url, method: "POST" as const, headers: row.requestHeaders, body: row.requestBody },
    response: row.responseStatus === null ? undefined : { status: row.responseStatus, body: row.responseBody ?? "" },
    durationMs: Math.round(row.durationMs * 10) / 10,
    success: row.success,
    error: row.error,
  });
}

async function requireWebhook(userId: string, id: string) {
  const row = await findWebhookRow(userId, id);
  if (!row) throw notFound("webhook");
  return row;
}

/** Every delivery attempt of a webhook, newest first. */
export async function listDeliveries(userId: string, webhookId: string, page: PageQuery): Promise<Page<WebhookDelivery>> {
  await requireWebhook(userId, webhookId);
  return pageOf(webhookDeliveries, eq(webhookDeliveries.webhookId, webhookId), page, serializeDelivery);
}

async function requireDelivery(userId: string, webhookId: string, logId: string) {
  await requireWebhook(userId, webhookId);
  const row = await db().query.webhookDeliveries.findFirst({
    where: and(eq(webhookDeliveries.id, logId), eq(webhookDeliveries.webhookId, webhookId)),
  });
  if (!row) throw notFound("webhook delivery");
  return row;
}

export async function getDelivery(userId: string, webhookId: string, logId: string): Promise<WebhookDelivery> {
  return serializeDelivery(await requireDelivery(userId, webhookId, logId));
}

/** Sends a logged event again: same event id, new timestamp and signature. */
export async function resendDelivery(userId: string, webhookId: string, logId: string) {
  const row = await requireDelivery(userId, webhookId, logId);
  // A viewer's access check answers that viewer, then: asked again, it would decide nothing.
  if (row.event === ACCESS_CONTROL_EVENT) throw invalid("an access check is asked when a viewer comes to watch; it cannot be resent");
  const sent = JSON.parse(row.requestBody);
  const data: WebhookEventData = {
    eventId: row.eventId,
    event: row.event as WebhookEvent,
    userId,
    createdAt: sent.createdAt,
    ...(sent.stream ? { stream: sent.stream } : {}),
    payload: sent.payload ?? {},
  };
  await requestDelivery(webhookId, data);
  return { eventId: data.eventId, event: data.event };
}

/** A sample of an event, delivered through the same path as real ones (signed, logged, retried). */
export async function sendTestEvent(userId: string, webhookId: string, event: WebhookEvent) {
  await requireWebhook(userId, webhookId);
  const data: WebhookEventData = { eventId: newId(), event, userId, createdAt: Date.now(), ...sampleEvent(event, userId) };
  await requestDelivery(webhookId, data);
  return { eventId: data.eventId, event };
}
