import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listAssets } from "@/lib/assets/service";

export const GET = route(operations.listAssets, ({ caller, query }) => listAssets(caller.userId, { ...query, filters: query.filters ?? [] }));
