import { z } from "zod";
import { Profile } from "@/lib/streams/schema";

export const Session = z
  .object({
    id: z.string(),
    name: z.string().describe("the stream's name when this broadcast started (sessions are read-only: a rename does not change it)"),
    streamName: z
      .string()
      .optional()
      .describe("Castline addition, in API answers: the stream's current name, which the dashboard shows (webhook payloads carry the stream itself)"),
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
    endedAt: z.number().optional().describe("Castline addition: when the broadcast ended"),
    reconnectWindow: z
      .number()
      .optional()
      .describe(
        "Castline addition, recorded sessions: seconds after endedAt in which a publish continues this session and recording (its stream's reconnectWindow when it started); then the recording is finalized",
      ),
    assetId: z.string().optional().describe("Castline addition: the asset its recording becomes"),
    recordingPlaybackId: z.string().optional().describe("Castline addition: the playback id of the recording's asset, once it exists (/play/{playbackId})"),
    clippable: z
      .object({ startTime: z.number(), endTime: z.number() })
      .optional()
      .describe(
        "Castline addition, in API answers: the media a clip of this session can take now, in the times POST /clip takes (Unix ms on the stream's media timeline, its playlists' EXT-X-PROGRAM-DATE-TIME, which runs behind the wall clock when the media does). While live, endTime is the live edge: the last 30 s are endTime - 30000 to endTime. Unset when nothing is kept.",
      ),
  })
  .meta({ id: "Session" });
export type Session = z.infer<typeof Session>;

export const SessionListQuery = z.object({
  record: z.enum(["0", "1", "true", "false"]).optional(),
});

/** One time bucket of a session's ingest health (lib/sessions/health.ts folds heartbeats into it). */
export const HealthSample = z
  .object({
    at: z.number().describe("start of the bucket (ms since the epoch)"),
    bitrateKbps: z.number().optional().describe("mean bitrate the encoder sent"),
    fps: z.number().optional().describe("lowest frame rate measured"),
    keyframeIntervalS: z.number().optional().describe("longest keyframe interval measured"),
    lagS: z.number().optional().describe("longest the live output (the newest segment) trailed what the encoder sent, in seconds"),
    droppedRenditions: z.array(z.string()).optional().describe("renditions the media node had dropped because it could not transcode them in real time"),
  })
  .meta({ id: "HealthSample" });
export type HealthSample = z.infer<typeof HealthSample>;

/** What an issue is about: a reading of the encoder's feed, or the live transcoding ("transcoding", Castline's side). */
export const HealthReading = z.enum(["bitrate", "fps", "keyframeInterval", "transcoding"]);
export type HealthReading = z.infer<typeof HealthReading>;

/** What the encoder should fix (or what the media node did to keep the stream live), in plain words, and from when. */
export const HealthIssue = z
  .object({
    reading: HealthReading,
    message: z.string(),
    at: z.number().describe("the first sample that shows it (ms since the epoch)"),
  })
  .meta({ id: "HealthIssue" });
export type HealthIssue = z.infer<typeof HealthIssue>;

export const SessionHealth = z
  .object({
    sessionId: z.string(),
    isActive: z.boolean(),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    samples: z.array(HealthSample).describe("oldest first: one per 5 s for the first hour, then wider buckets (10 s, 20 s, ...) as the broadcast goes on"),
    issues: z.array(HealthIssue),
  })
  .meta({ id: "SessionHealth" });
export type SessionHealth = z.infer<typeof SessionHealth>;
