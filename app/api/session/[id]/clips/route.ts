import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listSessionClips } from "@/lib/clips/service";

export const GET = route(operations.listSessionClips, ({ caller, params, query }) => listSessionClips(caller.userId, params.id, query));
