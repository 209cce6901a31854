import { PageQuery } from "@/lib/api/pagination";
import { created, paged, route } from "@/lib/api/route";
import { StreamCreate, StreamListQuery } from "@/lib/streams/schema";
import { createStream, listStreams } from "@/lib/streams/service";

export const POST = route({ auth: "user", body: StreamCreate }, async ({ caller, body }) =>
  created(await createStream(caller.userId, body)),
);

export const GET = route({ auth: "user", query: StreamListQuery.extend(PageQuery.shape) }, async ({ req, caller, query }) => {
  const filter = (id: string) => query.filters?.find((f) => f.id === id)?.value;
  const page = await listStreams(caller.userId, {
    limit: query.limit,
    cursor: query.cursor,
    streamsOnly: query.streamsonly === "1" || query.streamsonly === "true",
    isActive: filter("isActive"),
    record: filter("record"),
  });
  return paged(req, page);
});
