import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { importAsset } from "@/lib/assets/transfer/request-import";

export const POST = route(operations.importAsset, ({ caller, body }) => importAsset(caller.userId, body));
