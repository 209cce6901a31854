import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listTasks } from "@/lib/tasks/service";

export const GET = route(operations.listTasks, ({ caller, query }) => listTasks(caller.userId, { ...query, filters: query.filters ?? [] }));
