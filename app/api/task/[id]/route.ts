import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getTask } from "@/lib/tasks/service";

export const GET = route(operations.getTask, ({ caller, params }) => getTask(caller.userId, params.id));
