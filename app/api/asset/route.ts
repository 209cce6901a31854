import { PageQuery } from "@/lib/api/pagination";
import { paged, route } from "@/lib/api/route";
import { listAssets } from "@/lib/assets/service";

export const GET = route({ auth: "user", query: PageQuery }, async ({ req, caller, query }) =>
  paged(req, await listAssets(caller.userId, query)),
);
