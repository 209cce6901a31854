import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { resendDelivery } from "@/lib/webhooks/service";

/** 202: the delivery is queued; it shows in the log when it has been attempted. */
export const POST = route(operations.resendDelivery, ({ caller, params }) => resendDelivery(caller.userId, params.id, params.logId));
