import { PageQuery } from "@/lib/api/pagination";
import { paged, route } from "@/lib/api/route";
import { listDeliveries } from "@/lib/webhooks/service";

export const GET = route({ auth: "user", query: PageQuery }, async ({ req, caller, params, query }) =>
  paged(req, await listDeliveries(caller.userId, params.id, query)),
);
