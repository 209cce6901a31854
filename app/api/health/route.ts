import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { checkHealth } from "@/lib/health/service";

export const dynamic = "force-dynamic";

export const GET = route(operations.getHealth, () => checkHealth());
