import { after } from "node:test";
import { eq } from "drizzle-orm";
import { closeDb, db } from "@/db/client";
import { streams } from "@/db/schema";
import { createSession } from "@/lib/sessions/service";

/** Direct database access for tests that set up what later issues' pipelines will write. */
after(() => closeDb());

export { db };

/** Starts a session of a stream through the domain service, as the live pipeline will. */
export async function startSession(streamId: string) {
  const stream = await db().query.streams.findFirst({ where: eq(streams.id, streamId) });
  if (!stream) throw new Error(`no stream ${streamId}`);
  return createSession(stream);
}
