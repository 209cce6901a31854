import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { createWebhook, listWebhooks } from "@/lib/webhooks/service";

/** 200 rather than 201: the livepeer SDK expects 200 here. */
export const POST = route(operations.createWebhook, ({ caller, body }) => createWebhook(caller.userId, body));

export const GET = route(operations.listWebhooks, ({ caller, query }) => listWebhooks(caller.userId, query));
