import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks/service";

/** 202: the sample delivery is queued and goes through the same signed, logged, retried path. */
export const POST = route(operations.testWebhook, ({ caller, params, body }) => sendTestEvent(caller.userId, params.id, body.event));
