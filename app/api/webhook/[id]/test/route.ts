import { route } from "@/lib/api/route";
import { WebhookTestRequest } from "@/lib/webhooks/schema";
import { sendTestEvent } from "@/lib/webhooks/service";

/** 202: the sample delivery is queued and goes through the same signed, logged, retried path. */
export const POST = route({ auth: "user", body: WebhookTestRequest }, async ({ caller, params, body }) =>
  Response.json(await sendTestEvent(caller.userId, params.id, body.event), { status: 202 }),
);
