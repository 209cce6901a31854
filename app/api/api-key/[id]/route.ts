import { revokeApiKey } from "@/lib/api-keys/service";
import { noContent, route } from "@/lib/api/route";

export const DELETE = route({ auth: "user" }, async ({ caller, params }) => {
  await revokeApiKey(caller.userId, params.id);
  return noContent();
});
