import { z } from "zod";
import { Profile } from "@/lib/streams/schema";

export const Session = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string(),
    userId: z.string(),
    createdAt: z.number(),
    record: z.boolean(),
    profiles: z.array(Profile),
    isActive: z.boolean(),
    lastSeen: z.number().optional(),
    sourceSegments: z.number(),
    transcodedSegments: z.number(),
    sourceSegmentsDuration: z.number(),
    transcodedSegmentsDuration: z.number(),
    recordingStatus: z.enum(["waiting", "ready", "failed", "none"]).optional(),
    recordingUrl: z.string().optional(),
    mp4Url: z.string().optional(),
  })
  .meta({ id: "Session" });
export type Session = z.infer<typeof Session>;

export const SessionListQuery = z.object({
  record: z.enum(["0", "1", "true", "false"]).optional(),
});
