import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { multistreamStatus } from "@/lib/targets/live-state";

export const GET = route(operations.getMultistreamStatus, ({ caller, params }) => multistreamStatus(caller.userId, params.id));
