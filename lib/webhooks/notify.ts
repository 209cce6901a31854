import { and, arrayContains, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { webhooks } from "@/db/schema";
import { newId } from "@/lib/ids";
import { webhookDeliveryRequested, type WebhookEventData } from "@/lib/jobs/events";
import { emitEach } from "@/lib/jobs/emit";
import type { WebhookEvent } from "./events";

/**
 * Announces an event to the owner's webhooks: one delivery per subscribed webhook,
 * each retried on its own. The event id is fixed here, so every attempt of every
 * delivery carries the same id for de-duplication.
 */
export async function notifyWebhooks(
  userId: string,
  event: WebhookEvent,
  about: { stream?: Record<string, unknown>; payload?: Record<string, unknown> } = {},
) {
  const data: WebhookEventData = {
    eventId: newId(),
    event,
    userId,
    createdAt: Date.now(),
    ...(about.stream ? { stream: withoutKey(about.stream) } : {}),
    payload: about.payload ?? {},
  };
  const subscribers = await db()
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.userId, userId), arrayContains(webhooks.events, [event])));
  await emitEach(webhookDeliveryRequested, subscribers.map((w) => ({ data: { webhookId: w.id, event: data } })));
  return data;
}

/** A delivery of an already-built event to one webhook (resend, test events). */
export async function requestDelivery(webhookId: string, data: WebhookEventData) {
  await emitEach(webhookDeliveryRequested, [{ data: { webhookId, event: data } }]);
}

function withoutKey(stream: Record<string, unknown>) {
  const { streamKey: _secret, ...rest } = stream;
  return rest;
}
