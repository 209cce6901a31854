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
  .refine((value) => !/^srt:/i.test(value) || [null, "caller"].includes(new URLSearchParams(value.split("?")[1] ?? "").get("mode")), "srt:// targets must be callers (mode=caller, the default)");

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

export const Target = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    createdAt: z.number(),
  })
  .meta({ id: "MultistreamTarget" });
export type Target = z.infer<typeof Target>;

/** Only the creation response echoes the URL; it is write-only afterwards. */
export const TargetCreated = Target.extend({ url: z.string() }).meta({ id: "MultistreamTargetCreated" });
