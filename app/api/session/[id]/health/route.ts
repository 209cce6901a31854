import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { sessionHealth } from "@/lib/sessions/health";

export const GET = route(operations.getSessionHealth, ({ caller, params }) => sessionHealth(caller.userId, params.id));
