import { z } from "zod";

export const TargetUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return ["rtmp:", "rtmps:", "srt:"].includes(url.protocol) && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an rtmp://, rtmps:// or srt:// URL with a host")
  // A listener or rendezvous would open a port on the media node for anyone to connect to.
  .refine(
    (value) => !/^srt:/i.test(value) || [null, "caller"].includes(new URLSearchParams(value.split("?")[1] ?? "").get("mode")),
    "srt:// targets must be callers (mode=caller, the default)",
  );

const Name = z.string().trim().min(1, "must not be empty").max(200);

export const TargetCreate = z
  .strictObject({
    url: TargetUrl.describe("ingest URL including the target's stream key; write-only"),
    name: Name.optional().describe("defaults to the URL's host"),
    disabled: z.boolean().optional(),
  })
  .meta({ id: "NewMultistreamTargetPayload" });
export type TargetCreate = z.infer<typeof TargetCreate>;

export const TargetPatch = z
  .strictObject({ url: TargetUrl.optional(), name: Name.optional(), disabled: z.boolean().optional() })
  .meta({ id: "MultistreamTargetPatchPayload" });
export type TargetPatch = z.infer<typeof TargetPatch>;

/** Where a target sends to, without what the URL holds secret (stream key, user, password). */
const TargetHost = z.string().describe("Castline addition: the URL's host (and port when it has one); the URL itself is write-only");

export const Target = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    createdAt: z.number(),
    host: TargetHost,
    streams: z.array(z.object({ id: z.string(), name: z.string() })).describe("Castline addition: the streams whose multistream.targets name this target"),
  })
  .meta({ id: "MultistreamTarget" });
export type Target = z.infer<typeof Target>;

/** Only the creation response echoes the URL; it is write-only afterwards. */
export const TargetCreated = Target.extend({ url: z.string() }).meta({ id: "MultistreamTargetCreated" });

/**
 * What a target of a live stream is doing: `offline` (the stream is not live), `disabled`,
 * `waiting` (live, no push reported yet), `connecting`, `connected`, `retrying` (the last attempt
 * failed: `error` says why, `retryAt` when the next starts), `error` (failed, from a media node
 * that does not say when it retries), `disconnected`.
 */
export const TargetLiveState = z.enum(["offline", "disabled", "waiting", "connecting", "connected", "retrying", "error", "disconnected"]);
export type TargetLiveState = z.infer<typeof TargetLiveState>;

export const TargetStatus = z
  .object({
    id: z.string(),
    name: z.string(),
    host: TargetHost,
    profile: z.string(),
    videoOnly: z.boolean(),
    state: TargetLiveState,
    error: z.string().optional().describe("why the last attempt failed (retrying, error)"),
    retryAt: z.number().optional().describe("when the next attempt starts (retrying), ms"),
    updatedAt: z.number().optional().describe("when the media node reported this state, ms"),
  })
  .meta({ id: "MultistreamTargetStatus" });
export type TargetStatus = z.infer<typeof TargetStatus>;

export const MultistreamStatus = z
  .object({
    streamId: z.string(),
    sessionId: z.string().nullable().describe("the live session; null when the stream is not live"),
    checkedAt: z.number().describe("the server's time of this answer, ms (to count down to retryAt whatever the client's clock)"),
    targets: z.array(TargetStatus).describe("the stream's multistream.targets, in its order"),
  })
  .meta({ id: "MultistreamStatus" });
export type MultistreamStatus = z.infer<typeof MultistreamStatus>;
