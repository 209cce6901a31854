import { databaseAnswers } from "@/db/client";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { unavailable } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const GET = route(operations.getHealth, async () => {
  if (!(await databaseAnswers())) throw unavailable("database unavailable");
  return { status: "ok" as const };
});
