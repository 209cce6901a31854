import { ApiError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { databaseAnswers } from "@/db/client";

export const dynamic = "force-dynamic";

export const GET = route(operations.getHealth, async () => {
  if (!(await databaseAnswers())) throw new ApiError(503, ["database unavailable"]);
  return { status: "ok" as const };
});
