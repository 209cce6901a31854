import { noContent, route } from "@/lib/api/route";
import { deleteAsset, getAsset } from "@/lib/assets/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getAsset(caller.userId, params.id));

export const DELETE = route({ auth: "user" }, async ({ caller, params }) => {
  await deleteAsset(caller.userId, params.id);
  return noContent();
});
