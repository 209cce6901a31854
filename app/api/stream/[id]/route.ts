import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteStream, getStream, updateStream } from "@/lib/streams/service";

export const GET = route(operations.getStream, ({ caller, params }) => getStream(caller.userId, params.id));

export const PATCH = route(operations.updateStream, ({ caller, params, body }) => updateStream(caller.userId, params.id, body));

export const DELETE = route(operations.deleteStream, ({ caller, params }) => deleteStream(caller.userId, params.id));
