import { PageQuery } from "@/lib/api/pagination";
import { paged, route } from "@/lib/api/route";
import { WebhookInput } from "@/lib/webhooks/schema";
import { createWebhook, listWebhooks } from "@/lib/webhooks/service";

/** 200 rather than 201: the livepeer SDK expects 200 here. */
export const POST = route({ auth: "user", body: WebhookInput }, ({ caller, body }) => createWebhook(caller.userId, body));

export const GET = route({ auth: "user", query: PageQuery }, async ({ req, caller, query }) =>
  paged(req, await listWebhooks(caller.userId, query)),
);
