import { rowsAnswer } from "@/lib/analytics/csv";
import { viewership } from "@/lib/analytics/query";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(operations.getViewership, async ({ req, caller, query }) => rowsAnswer(req, await viewership(caller.userId, query, true), "views"));
