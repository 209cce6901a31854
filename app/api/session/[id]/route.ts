import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getSession } from "@/lib/sessions/service";

export const GET = route(operations.getSession, ({ caller, params }) => getSession(caller.userId, params.id));
