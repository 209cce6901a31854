import { transcodeSlots } from "@/lib/assets/processing/transcode";
import { config } from "@/lib/config";
import { inngest } from "@/lib/jobs/client";
import { startJobDriver, type JobDriver } from "@/lib/jobs/driver";
import { usesInngestServer } from "@/lib/jobs/mode";
import { usePlainProcessEnv } from "@/lib/jobs/plain-env";
import { functions } from "./functions";
import { transcodeRenditionChunk } from "./functions/renditions";

/**
 * Starts the built-in driver for the app's functions, unless an Inngest server
 * drives them (then it calls /api/inngest and nothing runs here). Where the
 * functions meet the driver (lib/jobs, the mechanism, knows none of them), as
 * app/api/inngest/route.ts is where they meet an Inngest server.
 */
export async function startBackgroundWork(): Promise<JobDriver | undefined> {
  if (usesInngestServer()) {
    console.log("background work: driven by the Inngest server through /api/inngest");
    return undefined;
  }
  usePlainProcessEnv();
  return startJobDriver({
    functions,
    client: inngest,
    retentionMs: config().JOB_RETENTION_DAYS * 86_400_000,
    perProcess: [{ fn: transcodeRenditionChunk, limit: transcodeSlots }],
  });
}
