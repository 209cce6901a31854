import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listDeliveries } from "@/lib/webhooks/service";

export const GET = route(operations.listDeliveries, ({ caller, params, query }) => listDeliveries(caller.userId, params.id, query));
