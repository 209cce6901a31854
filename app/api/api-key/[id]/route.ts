import { revokeApiKey } from "@/lib/api-keys/service";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const DELETE = route(operations.revokeApiKey, ({ caller, params }) => revokeApiKey(caller.userId, params.id));
