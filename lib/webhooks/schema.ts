import { z } from "zod";
import { HttpUrl } from "@/lib/net/http-url";
import { WEBHOOK_EVENTS } from "./events";

export const WebhookInput = z
  .strictObject({
    name: z.string().trim().min(1, "must not be empty").max(200),
    url: HttpUrl,
    events: z
      .array(z.enum(WEBHOOK_EVENTS, { message: `must be one of: ${WEBHOOK_EVENTS.join(", ")}` }))
      .min(1, "list at least one event")
      .transform((events) => [...new Set(events)]),
  })
  .meta({ id: "WebhookPayload" });
export type WebhookInput = z.infer<typeof WebhookInput>;

/** The newest failed delivery: when, and what the receiver answered (or why none reached it). */
export const WebhookFailure = z.object({
  timestamp: z.number(),
  statusCode: z.number().optional(),
  error: z.string().optional(),
  response: z.string().optional(),
});
export type WebhookFailure = z.infer<typeof WebhookFailure>;

export const Webhook = z
  .object({
    id: z.string(),
    kind: z.literal("webhook"),
    name: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    userId: z.string(),
    createdAt: z.number(),
    status: z
      .object({
        lastTriggeredAt: z.number().optional(),
        lastFailure: WebhookFailure.optional(),
      })
      .optional(),
  })
  .meta({ id: "Webhook" });
export type Webhook = z.infer<typeof Webhook>;

/** Only the creation response carries the signing secret. */
export const WebhookCreated = Webhook.extend({ sharedSecret: z.string() }).meta({ id: "WebhookCreated" });
export type WebhookCreated = z.infer<typeof WebhookCreated>;

/** What the API answers when it has queued a delivery (resend, test event). */
export const QueuedDelivery = z.object({ eventId: z.string(), event: z.string() }).meta({ id: "QueuedDelivery" });
export type QueuedDelivery = z.infer<typeof QueuedDelivery>;

export const WebhookDelivery = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string().describe("the same on every attempt of one event"),
    event: z.string(),
    createdAt: z.number(),
    request: z.object({ url: z.string(), method: z.literal("POST"), headers: z.record(z.string(), z.string()), body: z.string() }),
    response: z.object({ status: z.number(), body: z.string().describe("first KiB") }).optional(),
    durationMs: z.number(),
    success: z.boolean(),
    error: z.string().optional(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookTestRequest = z
  .strictObject({ event: z.enum(WEBHOOK_EVENTS, { message: `must be one of: ${WEBHOOK_EVENTS.join(", ")}` }) })
  .meta({ id: "WebhookTestPayload" });
