import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { createClip } from "@/lib/clips/service";

export const POST = route(operations.createClip, ({ caller, body }) => createClip(caller.userId, body));
