import { preflight } from "@/lib/api/cors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { requestUpload } from "@/lib/assets/upload/request";

export const POST = route(operations.requestUpload, ({ caller, body }) => requestUpload(caller.userId, body));

export const OPTIONS = preflight("key");
