import { noContent, route } from "@/lib/api/route";
import { RecordPatch } from "@/lib/streams/schema";
import { updateStream } from "@/lib/streams/service";

/** Parent streams only: a session id is refused with a 400 by the service. */
export const PATCH = route({ auth: "user", body: RecordPatch }, async ({ caller, params, body }) => {
  await updateStream(caller.userId, params.id, { record: body.record });
  return noContent();
});
