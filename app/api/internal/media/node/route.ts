import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { nodeBeat } from "@/lib/live/nodes";

export const POST = route(operations.mediaNodeBeat, ({ body }) => nodeBeat(body));
