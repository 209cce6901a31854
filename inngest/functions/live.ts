import { config } from "@/lib/config";
import { retireDvr } from "@/lib/live/dvr";
import { inngest } from "@/lib/jobs/client";
import { liveSessionEnded } from "@/lib/jobs/events";

/** A live session ended: its DVR (clips can still be cut from it) stays for LIVE_DVR_WINDOW_S, then goes. */
export const retireLiveDvr = inngest.createFunction({ id: "live-dvr-retire", triggers: [liveSessionEnded], retries: 3 }, async ({ event, step }) => {
  await step.sleepUntil("the DVR window", new Date(event.data.endedAt + config().LIVE_DVR_WINDOW_S * 1000));
  return { dvr: await step.run("retire the DVR", () => retireDvr(event.data.sessionId)) };
});
