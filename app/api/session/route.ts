import { PageQuery } from "@/lib/api/pagination";
import { paged, route } from "@/lib/api/route";
import { listSessions } from "@/lib/sessions/service";

export const GET = route({ auth: "user", query: PageQuery }, async ({ req, caller, query }) =>
  paged(req, await listSessions(caller.userId, query)),
);
