import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listNodes } from "@/lib/live/nodes";

export const GET = route(operations.listMediaNodes, () => listNodes());
