import { recordingFailed, recordingPlayable, recordingToAsset, reconnectDeadline, sessionStillEnded } from "@/lib/live/recordings";
import { inngest } from "@/lib/jobs/client";
import { recordingEnded } from "@/lib/jobs/events";
import { ladderSteps, playableSteps } from "./assets";

/**
 * A recorded session ended: wait out its reconnect window (a publish within it
 * continues the same session; 0: none), then turn the recording into an asset, processed
 * as an upload is. The recording is announced (`recording.ready`) once its asset
 * plays, not when its file is made: a receiver can play what it is told of.
 */
export const finalizeRecording = inngest.createFunction(
  {
    id: "recording-finalize",
    triggers: [recordingEnded],
    retries: 3,
    onFailure: async ({ event, error }) => {
      await recordingFailed(event.data.event.data.sessionId, `Recording failed: ${error.message ?? "unknown error"}`);
    },
  },
  async ({ event, step }) => {
    const { sessionId, endedAt } = event.data;
    const deadline = await step.run("its reconnect window", () => reconnectDeadline(sessionId, endedAt));
    await step.sleepUntil("reconnect window", new Date(deadline));
    if (!(await step.run("check for a reconnect", () => sessionStillEnded(sessionId, endedAt)))) {
      return { resumed: true };
    }
    // One step: the mp4 is made in this worker's scratch, and the next step may run on another machine.
    const assetId = await step.run("create the asset", () => recordingToAsset(sessionId));
    if (!assetId) return { sessionId, gone: true };
    const playable = await playableSteps(step, { assetId }, 0.5);
    if (!playable.ready) {
      await step.run("fail the recording", () => recordingFailed(sessionId, playable.reason));
      return { sessionId, ready: false, reason: playable.reason };
    }
    await step.run("announce the recording", () => recordingPlayable(sessionId));
    return { sessionId, ready: true, chunks: await ladderSteps(step, assetId) };
  },
);
