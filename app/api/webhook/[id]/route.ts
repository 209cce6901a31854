import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteWebhook, getWebhook, replaceWebhook } from "@/lib/webhooks/service";

export const GET = route(operations.getWebhook, ({ caller, params }) => getWebhook(caller.userId, params.id));

export const PUT = route(operations.replaceWebhook, ({ caller, params, body }) => replaceWebhook(caller.userId, params.id, body));

export const DELETE = route(operations.deleteWebhook, ({ caller, params }) => deleteWebhook(caller.userId, params.id));
