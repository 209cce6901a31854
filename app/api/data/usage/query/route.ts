import { usage } from "@/lib/analytics/query";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(operations.getUsage, ({ caller, query }) => usage(caller.userId, query));
