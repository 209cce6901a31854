import { ApiKeyCreate } from "@/lib/api-keys/schema";
import { createApiKey, listApiKeys } from "@/lib/api-keys/service";
import { created, route } from "@/lib/api/route";

export const GET = route({ auth: "user" }, ({ caller }) => listApiKeys(caller.userId));

export const POST = route({ auth: "user", body: ApiKeyCreate }, async ({ caller, body }) =>
  created(await createApiKey(caller.userId, body.name)),
);
