import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { importAsset } from "@/lib/assets/transfer/request-import";

/** Livepeer's path for an import from a URL, which the livepeer SDK's asset.createViaUrl calls. */
export const POST = route(operations.importAssetViaUrl, ({ caller, body }) => importAsset(caller.userId, body));
