import { noContent, route } from "@/lib/api/route";
import { StreamPatch } from "@/lib/streams/schema";
import { deleteStream, getStream, updateStream } from "@/lib/streams/service";

export const GET = route({ auth: "user" }, ({ caller, params }) => getStream(caller.userId, params.id));

export const PATCH = route({ auth: "user", body: StreamPatch }, async ({ caller, params, body }) => {
  await updateStream(caller.userId, params.id, body);
  return noContent();
});

export const DELETE = route({ auth: "user" }, async ({ caller, params }) => {
  await deleteStream(caller.userId, params.id);
  return noContent();
});
