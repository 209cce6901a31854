import { and, arrayContains, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { webhooks } from "@/db/schema";
import { newId } from "@/lib/ids";
import { webhookDeliveryRequested, type WebhookEventData } from "@/lib/jobs/events";
import { emitEach } from "@/lib/jobs/emit";
import type { Stream } from "@/lib/streams/schema";
import type { AboutEvery, NotificationEvent, WebhookAbout } from "./payloads";

/**
 * Announces an event to the owner's webhooks: one delivery per subscribed webhook,
 * each retried on its own. The event id is fixed here, so every attempt of every
 * delivery carries the same id for de-duplication.
 */
export async function notifyWebhooks<E extends NotificationEvent>(userId: string, event: E, about: AboutEvery<E>): Promise<WebhookEventData>;
export async function notifyWebhooks(userId: string, event: NotificationEvent, about: WebhookAbout): Promise<WebhookEventData> {
  const data: WebhookEventData = {
    eventId: newId(),
    event,
    userId,
    createdAt: Date.now(),
    ...(about.stream ? { stream: withoutKey(about.stream) } : {}),
    payload: about.payload,
  };
  const subscribers = await db()
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.userId, userId), arrayContains(webhooks.events, [event])));
  await emitEach(
    webhookDeliveryRequested,
    subscribers.map((w) => ({ data: { webhookId: w.id, event: data } })),
  );
  return data;
}

/** A delivery of an already-built event to one webhook (resend, test events). */
export async function requestDelivery(webhookId: string, data: WebhookEventData) {
  await emitEach(webhookDeliveryRequested, [{ data: { webhookId, event: data } }]);
}

function withoutKey(stream: Stream) {
  const { streamKey: _secret, ...rest } = stream;
  return rest;
}
