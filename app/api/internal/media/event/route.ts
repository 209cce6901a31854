import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { sessionEvent } from "@/lib/live/ingest";

export const POST = route(operations.mediaEvent, ({ body }) => sessionEvent(body));
