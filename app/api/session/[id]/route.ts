import { route } from "@/lib/api/route";
import { getSession } from "@/lib/sessions/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getSession(caller.userId, params.id));
