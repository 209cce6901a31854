import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { sessions, tasks } from "@/db/schema";
import { sourceArrived, storeSource } from "@/lib/assets/processing/store-source";
import { mediaBase } from "@/lib/assets/processing/base";
import { assetById } from "@/lib/assets/service";
import { assetSourceStored } from "@/lib/jobs/events";
import { emit } from "@/lib/jobs/emit";
import { objects } from "@/lib/storage";
import { updateTask } from "@/lib/tasks/service";
import { cutWindow, makeWindow, type WindowSource } from "./cut";
import { ClipParams } from "./schema";
import { EDGE_TOLERANCE_MS, liveEdgeWaitMs, segmentsBetween, sessionTimelines } from "./timeline";

export type ClipOutcome = { ok: true; durationS: number; reencodedFrames: number } | { ok: false; reason: string };

/** A range the job cannot cut after all (its media went meanwhile): the clip fails with this. */
class Uncuttable extends Error {}

/**
 * Cuts the clip's range into an mp4 in this worker's scratch folder, stores it as the
 * clip asset's source and hands it to the asset pipeline (assetSourceStored), as an
 * upload would be. One step: the scratch files do not outlive it.
 */
export async function makeClip(assetId: string, taskId: string): Promise<ClipOutcome> {
  const asset = await assetById(assetId);
  const task = await db().query.tasks.findFirst({ where: eq(tasks.id, taskId) });
  if (!asset || !task) return { ok: false, reason: "the clip's asset or task no longer exists" };
  const params = ClipParams.parse(task.params.clip);
  // Stored by an earlier try that did not get to say so.
  if (asset.files?.source) {
    await handOver(assetId, taskId);
    return { ok: true, durationS: 0, reencodedFrames: 0 };
  }
  await updateTask(taskId, { phase: "running", progress: 0.1 });
  const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), "castline-clip-"));
  try {
    const { source, fromS, toS } = params.sessionId ? await sessionRange(params.sessionId, params) : await assetRange(params);
    const window = path.join(scratch, "window.ts");
    const { originS } = await makeWindow(source, window);
    const mp4 = path.join(scratch, "clip.mp4");
    const cut = await cutWindow(window, fromS + originS, toS + originS, mp4);
    await storeSource(assetId, fs.createReadStream(mp4));
    await handOver(assetId, taskId);
    return { ok: true, durationS: cut.duration, reencodedFrames: cut.reencodedFrames };
  } catch (err) {
    if (err instanceof Uncuttable) return { ok: false, reason: err.message };
    throw err;
  } finally {
    await fs.promises.rm(scratch, { recursive: true, force: true });
  }
}

async function handOver(assetId: string, taskId: string) {
  await sourceArrived(assetId, taskId, 0.5);
  await emit(assetSourceStored, { assetId, taskId }, { id: `clip-${assetId}` });
}

async function assetRange(params: ClipParams): Promise<{ source: WindowSource; fromS: number; toS: number }> {
  const fromS = params.clipStrategy.startTime / 1000;
  const toS = params.clipStrategy.endTime / 1000;
  const input = await assetById(params.inputId);
  if (!input) throw new Uncuttable("the asset clipped no longer exists");
  // Its H.264 base: the original itself, or its transcode when browsers could not play that.
  const { url } = await mediaBase(input);
  return { source: { kind: "file", input: url, fromS, toS }, fromS, toS };
}

/**
 * The session's segments that hold the range, laid end to end from the first one's
 * start. A live clip that ends past the live edge waits for its last segments; should
 * the broadcast stop first, the clip ends where the broadcast did.
 */
async function sessionRange(sessionId: string, params: ClipParams) {
  const { startTime } = params.clipStrategy;
  let { endTime } = params.clipStrategy;
  const deadline = Date.now() + liveEdgeWaitMs();
  for (;;) {
    const session = await db().query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
    if (!session) throw new Uncuttable("the session no longer exists");
    const timelines = await sessionTimelines(session);
    const timeline = timelines[params.timeline ?? "recording"];
    if (!timeline || timeline.start > startTime + EDGE_TOLERANCE_MS) throw new Uncuttable("the start of the range is no longer kept");
    if (timeline.end >= endTime || !session.isActive || Date.now() > deadline) {
      endTime = Math.min(endTime, timeline.end);
      const segments = segmentsBetween(timeline, startTime, endTime);
      if (startTime >= timeline.end) {
        const short = `${((startTime - timeline.end) / 1000).toFixed(1)} s before the start of the range`;
        throw new Uncuttable(
          session.isActive
            ? `the stream's media had not reached this range in time (it ended ${short}): retry once the stream is past it`
            : `the broadcast ended ${short}`,
        );
      }
      if (!segments.length || endTime <= startTime) throw new Uncuttable("nothing of the range is kept");
      const store = objects();
      const inputs = await Promise.all(segments.map(async (s) => ({ input: await store.mediaInput(s.key), duration: s.duration })));
      const origin = segments[0].startedAt;
      return {
        source: { kind: "segments" as const, segments: inputs },
        fromS: Math.max(0, startTime - origin) / 1000,
        toS: (endTime - origin) / 1000,
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
