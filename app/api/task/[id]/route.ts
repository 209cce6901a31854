import { route } from "@/lib/api/route";
import { getTask } from "@/lib/tasks/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getTask(caller.userId, params.id));
