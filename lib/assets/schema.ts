import { z } from "zod";

export const ASSET_PHASES = ["waiting", "uploading", "processing", "ready", "failed", "deleted"] as const;

const VideoTrack = z.object({
  type: z.literal("video"),
  codec: z.string(),
  fps: z.number().optional(),
  width: z.number(),
  height: z.number(),
  bitrate: z.number().optional(),
  duration: z.number().optional(),
  pixelFormat: z.string().optional(),
});
const AudioTrack = z.object({
  type: z.literal("audio"),
  codec: z.string(),
  bitrate: z.number().optional(),
  channels: z.number().optional(),
  duration: z.number().optional(),
  sampleRate: z.number().optional(),
});

export const VideoSpec = z
  .object({
    format: z.string(),
    duration: z.number().describe("seconds"),
    bitrate: z.number().optional(),
    tracks: z.array(z.discriminatedUnion("type", [VideoTrack, AudioTrack])),
  })
  .meta({ id: "VideoSpec" });

export const Hash = z.object({ hash: z.string(), algorithm: z.string() });

export const Asset = z
  .object({
    id: z.string(),
    name: z.string(),
    userId: z.string(),
    createdAt: z.number(),
    playbackId: z.string(),
    status: z.object({
      phase: z.enum(ASSET_PHASES),
      updatedAt: z.number(),
      progress: z.number().optional(),
      errorMessage: z.string().optional(),
    }),
    source: z.record(z.string(), z.unknown()),
    size: z.number().optional(),
    hash: z.array(Hash).optional(),
    videoSpec: VideoSpec.optional(),
    storage: z.record(z.string(), z.unknown()).optional(),
    playbackUrl: z.string().optional(),
    downloadUrl: z.string().optional(),
  })
  .meta({ id: "Asset" });
export type Asset = z.infer<typeof Asset>;
