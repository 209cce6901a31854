import { route } from "@/lib/api/route";
import { WebhookInput } from "@/lib/webhooks/schema";
import { deleteWebhook, getWebhook, replaceWebhook } from "@/lib/webhooks/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getWebhook(caller.userId, params.id));

export const PUT = route({ auth: "user", body: WebhookInput }, ({ caller, params, body }) =>
  replaceWebhook(caller.userId, params.id, body),
);

/** Answers the deleted webhook (200 JSON), as the livepeer SDK expects. */
export const DELETE = route({ auth: "user" }, ({ caller, params }) => deleteWebhook(caller.userId, params.id));
