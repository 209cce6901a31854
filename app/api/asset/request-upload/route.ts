import { route } from "@/lib/api/route";
import { RequestUpload } from "@/lib/assets/schema";
import { requestUpload } from "@/lib/assets/service";

/** 200, as the livepeer SDK expects for request-upload. */
export const POST = route({ auth: "user", body: RequestUpload }, ({ caller, body }) => requestUpload(caller.userId, body.name));
