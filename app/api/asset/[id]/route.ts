import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteAsset, getAsset, patchAsset } from "@/lib/assets/service";

export const GET = route(operations.getAsset, ({ caller, params }) => getAsset(caller.userId, params.id));

export const PATCH = route(operations.updateAsset, ({ caller, params, body }) => patchAsset(caller.userId, params.id, body));

export const DELETE = route(operations.deleteAsset, ({ caller, params, query }) => deleteAsset(caller.userId, params.id, query));
