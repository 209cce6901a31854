import { invalid } from "@/lib/errors";
import { ACCESS_CONTROL_EVENT } from "@/lib/webhooks/events";
import { findWebhookRow } from "@/lib/webhooks/service";
import type { PlaybackPolicy } from "./schema";

/**
 * A policy as it may be stored for this user: a webhook policy names one of the user's
 * webhooks, subscribed to playback.accessControl. null (public) passes as it is.
 */
export async function checkPlaybackPolicy<P extends PlaybackPolicy | null | undefined>(userId: string, policy: P): Promise<P> {
  if (policy?.type !== "webhook") return policy;
  const hook = await findWebhookRow(userId, policy.webhookId!);
  if (!hook) throw invalid("playbackPolicy.webhookId: no webhook with this id");
  if (!hook.events.includes(ACCESS_CONTROL_EVENT)) {
    throw invalid(`playbackPolicy.webhookId: the webhook must subscribe to the ${ACCESS_CONTROL_EVENT} event`);
  }
  return policy;
}
