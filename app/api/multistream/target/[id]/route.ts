import { noContent, route } from "@/lib/api/route";
import { TargetPatch } from "@/lib/targets/schema";
import { deleteTarget, getTarget, updateTarget } from "@/lib/targets/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getTarget(caller.userId, params.id));

export const PATCH = route({ auth: "user", body: TargetPatch }, async ({ caller, params, body }) => {
  await updateTarget(caller.userId, params.id, body);
  return noContent();
});

export const DELETE = route({ auth: "user" }, async ({ caller, params }) => {
  await deleteTarget(caller.userId, params.id);
  return noContent();
});
