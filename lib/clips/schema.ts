import { z } from "zod";

const Time = z.number().int("must be whole milliseconds").min(0).max(8.64e15);

/** POST /clip (Livepeer's ClipPayload). */
export const ClipPayload = z
  .strictObject({
    playbackId: z.string().min(1).max(64).describe("a stream's playback id, or (unlike Livepeer) an asset's"),
    startTime: Time.describe(
      "stream: Unix ms on the stream's media timeline, as players show it (the HLS EXT-X-PROGRAM-DATE-TIME; behind the wall clock when the media is: a session's clippable.endTime is its live edge); asset: ms from the asset's start",
    ),
    endTime: Time.optional().describe("as startTime; unset: the live edge of a live stream (its newest media), the end of a recording or asset"),
    name: z.string().trim().min(1).max(500).optional(),
    sessionId: z.string().min(1).max(64).optional().describe("a session of the stream; unset: its latest"),
  })
  .meta({ id: "ClipPayload" });
export type ClipPayload = z.infer<typeof ClipPayload>;

/** What the clip task keeps (Livepeer's task.params.clip): the range, resolved, and what it is cut from. */
export const ClipParams = z.object({
  clipStrategy: z.object({ startTime: z.number(), endTime: z.number(), playbackId: z.string() }),
  /** The stream or asset. */
  inputId: z.string(),
  sessionId: z.string().optional(),
  /** A session's clip is cut from the media whose times it was asked in: the DVR (live) or the recording. */
  timeline: z.enum(["dvr", "recording"]).optional(),
});
export type ClipParams = z.infer<typeof ClipParams>;
