import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { createTarget, listTargets } from "@/lib/targets/service";

export const POST = route(operations.createTarget, ({ caller, body }) => createTarget(caller.userId, body));

export const GET = route(operations.listTargets, ({ caller, query }) => listTargets(caller.userId, query));
