import { sql } from "drizzle-orm";
import { db } from "@/db/client";

export const dynamic = "force-dynamic";

/** 200 once the app can serve requests (its database answers), 503 otherwise. No auth. */
export async function GET() {
  try {
    await db().execute(sql`SELECT 1`);
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable", errors: ["database unavailable"] }, { status: 503 });
  }
}
