import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listStreamClips } from "@/lib/clips/service";

export const GET = route(operations.listStreamClips, ({ caller, params, query }) => listStreamClips(caller.userId, params.id, query));
