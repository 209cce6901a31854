import { eventType } from "inngest";
import { z } from "zod";
import { WEBHOOK_EVENTS } from "@/lib/webhooks/events";

/**
 * Every event that starts background work, with its payload's schema: the contract between
 * the domains that emit() them (lib/jobs/emit.ts) and the functions that trigger on them
 * (inngest/functions), which both see the payload typed. It sits below both, so a domain
 * names its work without reaching up to the functions that import it.
 * Secrets travel sealed (lib/secrets.ts), never in the clear.
 */

/** A source file is in the object store (an upload, a clip): make it a playable asset. */
export const assetSourceStored = eventType("asset/source.stored", {
  schema: z.object({ assetId: z.string(), taskId: z.string().optional() }),
});

/** One chunk of one rendition of an asset's ABR ladder to transcode (lib/assets/processing/renditions.ts plans them). */
export const renditionChunkRequested = eventType("asset/rendition-chunk.requested", {
  schema: z.object({ assetId: z.string(), rendition: z.string(), index: z.number().int().min(0) }),
});

/** An upload URL pre-signed by S3 was handed out: watch the bucket for the object until it expires. */
export const assetUploadAwaited = eventType("asset/upload.awaited", {
  schema: z.object({ assetId: z.string(), taskId: z.string(), expiresAt: z.number() }),
});

/** DELETE /asset/{id}?purge=true: remove the asset's stored files (playback stopped already). */
export const assetPurged = eventType("asset/purged", {
  schema: z.object({ assetId: z.string() }),
});

/** POST /asset/import: download the source (its URL sealed: it may carry credentials). */
export const assetImportRequested = eventType("asset/import.requested", {
  schema: z.object({ assetId: z.string(), taskId: z.string(), sealedUrl: z.string() }),
});

/** POST /asset/{id}/export: the request sealed (pinning keys, custom headers, URLs). */
export const assetExportRequested = eventType("asset/export.requested", {
  schema: z.object({ assetId: z.string(), taskId: z.string(), sealedExport: z.string() }),
});

/** A recorded session ended: wait out the reconnect window, then make the recording an asset. */
export const recordingEnded = eventType("recording/ended", {
  schema: z.object({ sessionId: z.string(), endedAt: z.number() }),
});

/** A live session ended (recorded or not): its DVR stays for LIVE_DVR_WINDOW_S, then goes. */
export const liveSessionEnded = eventType("live/session.ended", {
  schema: z.object({ sessionId: z.string(), endedAt: z.number() }),
});

/** POST /clip: cut the range into the clip's asset (the asset and its task exist already). */
export const clipRequested = eventType("clip/requested", {
  schema: z.object({ assetId: z.string(), taskId: z.string() }),
});

/** The body of a webhook event, as every delivery of it (and every retry) sends it. */
export const WebhookEventData = z.object({
  eventId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  userId: z.string(),
  createdAt: z.number(),
  /** The stream the event is about, without its key. */
  stream: z.record(z.string(), z.unknown()).optional(),
  payload: z.record(z.string(), z.unknown()),
});
export type WebhookEventData = z.infer<typeof WebhookEventData>;

/** One event to deliver to one webhook. */
export const webhookDeliveryRequested = eventType("webhook/delivery.requested", {
  schema: z.object({ webhookId: z.string(), event: WebhookEventData }),
});

/** A mail to send (lib/mail.ts): sign-up links. Its text may hold a sign-up link, itself sealed. */
export const mailRequested = eventType("mail/requested", {
  schema: z.object({ to: z.string(), subject: z.string(), text: z.string() }),
});
