import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { createSigningKey, listSigningKeys } from "@/lib/access/signing-keys";

export const POST = route(operations.createSigningKey, ({ caller, body }) => createSigningKey(caller.userId, body.name));

export const GET = route(operations.listSigningKeys, ({ caller }) => listSigningKeys(caller.userId));
