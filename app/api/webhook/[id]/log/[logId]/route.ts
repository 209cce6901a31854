import { route } from "@/lib/api/route";
import { getDelivery } from "@/lib/webhooks/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getDelivery(caller.userId, params.id, params.logId));
