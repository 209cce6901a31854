import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { updateStream } from "@/lib/streams/service";

/** Parent streams only: a session id is refused with a 400 by the service. */
export const PATCH = route(operations.setStreamRecord, ({ caller, params, body }) => updateStream(caller.userId, params.id, { record: body.record }));
