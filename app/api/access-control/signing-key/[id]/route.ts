import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteSigningKey, getSigningKey, updateSigningKey } from "@/lib/access/signing-keys";

export const GET = route(operations.getSigningKey, ({ caller, params }) => getSigningKey(caller.userId, params.id));

export const PATCH = route(operations.updateSigningKey, ({ caller, params, body }) => updateSigningKey(caller.userId, params.id, body));

export const DELETE = route(operations.deleteSigningKey, ({ caller, params }) => deleteSigningKey(caller.userId, params.id));
