import { createApiKey, listApiKeys } from "@/lib/api-keys/service";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(operations.listApiKeys, ({ caller }) => listApiKeys(caller.userId));

export const POST = route(operations.createApiKey, ({ caller, body }) => createApiKey(caller.userId, body));
