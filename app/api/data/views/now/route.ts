import { rowsAnswer } from "@/lib/analytics/csv";
import { viewsNow } from "@/lib/analytics/query";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(operations.getRealtimeViewership, async ({ req, caller, query }) => rowsAnswer(req, await viewsNow(caller.userId, query), "views-now"));
