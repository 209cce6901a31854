import { totalViews } from "@/lib/analytics/query";
import { preflight } from "@/lib/api/cors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(operations.getPublicViewership, ({ params }) => totalViews(params.playbackId));

export const OPTIONS = preflight("public");
