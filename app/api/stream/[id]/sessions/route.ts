import { PageQuery } from "@/lib/api/pagination";
import { paged, route } from "@/lib/api/route";
import { SessionListQuery } from "@/lib/sessions/schema";
import { listStreamSessions } from "@/lib/sessions/service";

export const GET = route(
  { auth: "user", query: SessionListQuery.extend(PageQuery.shape) },
  async ({ req, caller, params, query }) =>
    paged(
      req,
      await listStreamSessions(caller.userId, params.id, {
        limit: query.limit,
        cursor: query.cursor,
        recordedOnly: query.record === "1" || query.record === "true",
      }),
    ),
);
