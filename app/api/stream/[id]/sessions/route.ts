import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listStreamSessions } from "@/lib/sessions/service";

export const GET = route(operations.listStreamSessions, ({ caller, params, query }) =>
  listStreamSessions(caller.userId, params.id, {
    limit: query.limit,
    cursor: query.cursor,
    recordedOnly: query.record === "1" || query.record === "true",
  }),
);
