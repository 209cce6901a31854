import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { exportAsset } from "@/lib/assets/transfer/request-export";

export const POST = route(operations.exportAsset, ({ caller, params, body }) => exportAsset(caller.userId, params.id, body));
