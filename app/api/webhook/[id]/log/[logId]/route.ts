import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getDelivery } from "@/lib/webhooks/service";

export const GET = route(operations.getDelivery, ({ caller, params }) => getDelivery(caller.userId, params.id, params.logId));
