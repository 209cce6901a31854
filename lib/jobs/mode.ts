import { config } from "@/lib/config";

/**
 * Which driver runs the background functions. With an Inngest server configured
 * (INNGEST_DEV=<url> for the dev server, INNGEST_BASE_URL for a self-hosted one,
 * INNGEST_EVENT_KEY for Inngest Cloud) events go to it and it calls /api/inngest.
 * Otherwise the built-in driver (lib/jobs/driver.ts) runs them from PostgreSQL.
 */
export function usesInngestServer(): boolean {
  const { INNGEST_DEV, INNGEST_BASE_URL, INNGEST_EVENT_KEY } = config();
  return Boolean(INNGEST_DEV || INNGEST_BASE_URL || INNGEST_EVENT_KEY);
}
