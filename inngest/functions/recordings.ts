import { config } from "@/lib/config";
import { recordingToAsset, sessionStillEnded } from "@/lib/live/recordings";
import { inngest } from "../client";
import { recordingEnded } from "../events";

/**
 * A recorded session ended: wait out the reconnect window (a publish within it
 * continues the same session), then turn the recording into an asset.
 */
export const finalizeRecording = inngest.createFunction(
  { id: "recording-finalize", triggers: [recordingEnded], retries: 3 },
  async ({ event, step }) => {
    const { sessionId, endedAt } = event.data;
    await step.sleepUntil("reconnect window", new Date(endedAt + config().RECORDING_RECONNECT_WINDOW_S * 1000));
    if (!(await step.run("check for a reconnect", () => sessionStillEnded(sessionId, endedAt)))) {
      return { resumed: true };
    }
    // One step: the mp4 is made in this worker's scratch, and the next step may run on another machine.
    await step.run("create the asset", () => recordingToAsset(sessionId));
    return { sessionId };
  },
);
