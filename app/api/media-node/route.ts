import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listNodes } from "@/lib/live/nodes";
import { requireAdmin } from "@/lib/users/service";

/** The deployment's machines are the operators' business (the admin role), not every account's. */
export const GET = route(operations.listMediaNodes, async ({ caller }) => {
  await requireAdmin(caller.userId);
  return listNodes();
});
