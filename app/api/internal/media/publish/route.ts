import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { authorizePublish } from "@/lib/live/ingest";

/** A media node asks whether a stream key may publish; 403 says why not. */
export const POST = route(operations.authorizePublish, ({ body }) => authorizePublish(body.streamKey, body.nodeId, body.protocol));
