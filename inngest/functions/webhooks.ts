import { attemptDelivery, RETRY_SCHEDULE } from "@/lib/webhooks/delivery";
import { inngest } from "@/lib/jobs/client";
import { webhookDeliveryRequested } from "@/lib/jobs/events";

/**
 * Delivers one event to one webhook. The back-off lives here (sleeps between
 * attempts) rather than in function retries, so it is the same on any driver and
 * a non-retriable answer (most 4xx) ends the series at once.
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "webhook-deliver",
    triggers: [webhookDeliveryRequested],
    retries: 0,
    concurrency: { limit: 8, key: "event.data.webhookId" },
  },
  async ({ event, step }) => {
    const { webhookId, event: data } = event.data;
    for (let attempt = 0; ; attempt++) {
      const result = await step.run(`attempt ${attempt + 1}`, () => attemptDelivery(webhookId, data));
      if (result.ok) return { delivered: true, attempts: attempt + 1 };
      if (!result.retriable || attempt >= RETRY_SCHEDULE.length) {
        return { delivered: false, attempts: attempt + 1, error: result.error };
      }
      await step.sleep(`back off ${attempt + 1}`, RETRY_SCHEDULE[attempt]);
    }
  },
);
