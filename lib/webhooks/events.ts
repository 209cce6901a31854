/** Every event a webhook can subscribe to: the spec's eight, then asset and task events. */
export const WEBHOOK_EVENTS = [
  "stream.started",
  "stream.idle",
  "recording.started",
  "recording.waiting",
  "recording.ready",
  "multistream.connected",
  "multistream.error",
  "multistream.disconnected",
  "asset.created",
  "asset.ready",
  "asset.updated",
  "asset.failed",
  "asset.deleted",
  "task.spawned",
  "task.updated",
  "task.completed",
  "task.failed",
  // Not a notification: a webhook playback policy asks its receiver about each viewer (lib/access).
  "playback.accessControl",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A webhook playback policy's question about a viewer (Livepeer's name): logged, never queued or resent. */
export const ACCESS_CONTROL_EVENT = "playback.accessControl" satisfies WebhookEvent;
