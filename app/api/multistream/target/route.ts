import { PageQuery } from "@/lib/api/pagination";
import { created, paged, route } from "@/lib/api/route";
import { TargetCreate } from "@/lib/targets/schema";
import { createTarget, listTargets } from "@/lib/targets/service";

export const POST = route({ auth: "user", body: TargetCreate }, async ({ caller, body }) =>
  created(await createTarget(caller.userId, body)),
);

export const GET = route({ auth: "user", query: PageQuery }, async ({ req, caller, query }) =>
  paged(req, await listTargets(caller.userId, query)),
);
