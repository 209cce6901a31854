import { PageQuery } from "@/lib/api/pagination";
import { paged, route } from "@/lib/api/route";
import { listTasks } from "@/lib/tasks/service";

export const GET = route({ auth: "user", query: PageQuery }, async ({ req, caller, query }) =>
  paged(req, await listTasks(caller.userId, query)),
);
