import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteTarget, getTarget, updateTarget } from "@/lib/targets/service";

export const GET = route(operations.getTarget, ({ caller, params }) => getTarget(caller.userId, params.id));

export const PATCH = route(operations.updateTarget, ({ caller, params, body }) => updateTarget(caller.userId, params.id, body));

export const DELETE = route(operations.deleteTarget, ({ caller, params }) => deleteTarget(caller.userId, params.id));
