import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { rotateStreamKey } from "@/lib/streams/service";

export const POST = route(operations.rotateStreamKey, ({ caller, params }) => rotateStreamKey(caller.userId, params.id));
