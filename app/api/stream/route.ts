import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { createStream, listStreams } from "@/lib/streams/service";

export const POST = route(operations.createStream, ({ caller, body }) => createStream(caller.userId, body));

export const GET = route(operations.listStreams, ({ caller, query }) =>
  listStreams(caller.userId, {
    limit: query.limit,
    cursor: query.cursor,
    streamsOnly: query.streamsonly === "1" || query.streamsonly === "true",
    filters: query.filters ?? [],
    order: query.order,
  }),
);
