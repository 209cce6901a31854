import { route } from "@/lib/api/route";
import { Heartbeat } from "@/lib/live/schema";
import { heartbeat } from "@/lib/live/service";

export const POST = route({ auth: "media", body: Heartbeat }, ({ body }) => heartbeat(body));
