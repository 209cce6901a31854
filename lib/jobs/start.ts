import { inngest } from "@/inngest/client";
import { config } from "@/lib/config";
import { functions } from "@/inngest/functions";
import { transcodeRenditionChunk } from "@/inngest/functions/renditions";
import { transcodeSlots } from "@/lib/assets/transcode";
import { startJobDriver, type JobDriver } from "./driver";
import { usesInngestServer } from "./mode";
import { usePlainProcessEnv } from "./plain-env";

/**
 * Starts the built-in driver for the app's functions, unless an Inngest server
 * drives them (then it calls /api/inngest and nothing runs here).
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
