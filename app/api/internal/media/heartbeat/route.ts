import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { heartbeat } from "@/lib/live/ingest";

export const POST = route(operations.mediaHeartbeat, ({ body }) => heartbeat(body));
