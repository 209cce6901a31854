import { openApiDocument } from "@/lib/api/openapi";
import { operations } from "@/lib/api/operations";
import { rawRoute } from "@/lib/api/route";

export const dynamic = "force-static";

export const GET = rawRoute(operations.getOpenApi, () => Response.json(openApiDocument("/api")));
