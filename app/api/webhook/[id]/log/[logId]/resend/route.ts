import { route } from "@/lib/api/route";
import { resendDelivery } from "@/lib/webhooks/service";

/** 202: the delivery is queued; it shows in the log when it has been attempted. */
export const POST = route({ auth: "user" }, async ({ caller, params }) =>
  Response.json(await resendDelivery(caller.userId, params.id, params.logId), { status: 202 }),
);
