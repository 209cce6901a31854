import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listSessions } from "@/lib/sessions/service";

export const GET = route(operations.listSessions, ({ caller, query }) => listSessions(caller.userId, query));
