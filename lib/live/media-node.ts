import { z } from "zod";

/** A media node as operators see it (GET /api/media-node, `npm run cli -- nodes list`). */
export const MediaNode = z
  .object({
    id: z.string(),
    ingestUrl: z.string().nullable().describe("the RTMP URL it advertises; null: the app's host on its RTMP port"),
    rtmpPort: z.number(),
    state: z
      .enum(["healthy", "overloaded", "lost"])
      .describe(
        "overloaded: it heartbeats, but its CPU is overloaded or a broadcast on it fell behind real time; encoders go elsewhere while another node can take them",
      ),
    cores: z.number(),
    cpuLoad: z.number().describe("one-minute load average per core"),
    liveSessions: z.number(),
    laggingSessions: z.number().describe("live sessions whose output fell behind real time (renditions dropped, or trailing the encoder)"),
    startedAt: z.number(),
    lastHeartbeatAt: z.number(),
    lostAt: z.number().nullable(),
  })
  .meta({ id: "MediaNode" });
export type MediaNode = z.infer<typeof MediaNode>;
