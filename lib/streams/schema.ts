import { z } from "zod";
import { PlaybackPolicy, PlaybackPolicyInput } from "@/lib/access/schema";
import { FiltersParam, NameSearch, OrderParam, TimeRange } from "@/lib/api/list-query";
import { IngestHealth } from "@/lib/media-node-protocol";

const positiveInt = z.number().int().positive();

/**
 * What one stream may ask its media node to encode, live, for as long as it
 * broadcasts: renditions are never larger than the source nor above its frame
 * rate (lib/av/fit.ts), and at most this many of at most 4K at 60 fps.
 */
const MAX_PROFILES = 6;
const MAX_SIDE = 3840;
const MAX_PIXELS = 3840 * 2160;
const MAX_FPS = 60;

export const Profile = z
  .strictObject({
    name: z.string().trim().min(1).max(64),
    width: positiveInt.max(MAX_SIDE, `at most ${MAX_SIDE} (4K)`),
    height: positiveInt.max(MAX_SIDE, `at most ${MAX_SIDE} (4K)`),
    bitrate: positiveInt.max(100_000_000).describe("bits per second"),
    fps: positiveInt.max(MAX_FPS, `at most ${MAX_FPS}`),
  })
  .refine((p) => p.width * p.height <= MAX_PIXELS, { message: "at most 4K: 3840x2160 pixels, or 2160x3840" })
  .meta({ id: "Profile", description: "A live rendition: never larger than the source nor above its frame rate, whatever is asked." });
export type Profile = z.infer<typeof Profile>;

export const Profiles = z
  .array(Profile)
  .max(MAX_PROFILES, `at most ${MAX_PROFILES} renditions`)
  .superRefine((profiles, ctx) => {
    const seen = new Set<string>();
    profiles.forEach((p, i) => {
      if (p.name === "source") ctx.addIssue({ code: "custom", path: [i, "name"], message: '"source" is reserved for the original rendition' });
      if (seen.has(p.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate profile name "${p.name}"` });
      seen.add(p.name);
    });
  });

export const TargetRef = z
  .strictObject({
    id: z.string().min(1).describe("id of a multistream target"),
    profile: z.string().min(1).describe('name of the rendition to send, or "source"'),
    videoOnly: z.boolean().optional(),
  })
  .meta({ id: "MultistreamTargetRef" });
export type TargetRef = z.infer<typeof TargetRef>;

const Multistream = z.strictObject({ targets: z.array(TargetRef).max(20) });

const StreamName = z.string().trim().min(1, "must not be empty").max(500);

/** The longest reconnect window a stream may ask for (Mux's limit). */
export const MAX_RECONNECT_WINDOW_S = 1800;

const ReconnectWindow = z
  .number()
  .int("whole seconds")
  .min(0)
  .max(MAX_RECONNECT_WINDOW_S, `at most ${MAX_RECONNECT_WINDOW_S} seconds (30 minutes)`)
  .describe(
    "Castline addition (Mux's reconnect_window): seconds after a recorded broadcast ends in which the encoder may reconnect and continue the same session and recording; then the recording is finalized (0: at once). Unset: the deployment's default (RECORDING_RECONNECT_WINDOW_S, 60 unless configured). A session keeps the window it started with.",
  );

export const StreamCreate = z
  .strictObject({
    name: StreamName,
    profiles: Profiles.optional(),
    record: z.boolean().optional(),
    multistream: Multistream.optional(),
    playbackPolicy: PlaybackPolicyInput.optional(),
    reconnectWindow: ReconnectWindow.optional(),
  })
  .meta({ id: "NewStreamPayload" });
export type StreamCreate = z.infer<typeof StreamCreate>;

export const StreamPatch = z
  .strictObject({
    name: StreamName.optional().describe("Castline addition"),
    profiles: Profiles.optional().describe("Castline addition: the renditions; only while the stream is idle (409 while live)"),
    record: z.boolean().optional(),
    suspended: z.boolean().optional(),
    multistream: Multistream.optional(),
    playbackPolicy: PlaybackPolicyInput.optional().describe("who may watch it live and its recordings; null: public"),
    reconnectWindow: ReconnectWindow.nullable().optional().describe(`${ReconnectWindow.description} null: back to the default.`),
  })
  .meta({ id: "StreamPatchPayload" });
export type StreamPatch = z.infer<typeof StreamPatch>;

export const RecordPatch = z.strictObject({ record: z.boolean() });

const boolish = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);
const StreamFilter = z.discriminatedUnion("id", [
  z.strictObject({ id: z.literal("isActive"), value: boolish }),
  z.strictObject({ id: z.literal("record"), value: boolish }),
  z.strictObject({ id: z.literal("name"), value: NameSearch }),
  z.strictObject({ id: z.literal("createdAt"), value: TimeRange }),
  z.strictObject({ id: z.literal("lastSeen"), value: TimeRange }),
]);
export type StreamFilter = z.infer<typeof StreamFilter>;

export const StreamListQuery = z.object({
  streamsonly: z.enum(["0", "1", "true", "false"]).optional(),
  filters: FiltersParam(StreamFilter).describe(
    "URL-encoded JSON [{id, value}]: isActive, record (booleans), name (a case-insensitive part of it), createdAt, lastSeen ({gt?, lt?} in ms)",
  ),
  order: OrderParam(["createdAt", "lastSeen"]),
});

const counters = {
  sourceSegments: z.number(),
  transcodedSegments: z.number(),
  sourceSegmentsDuration: z.number(),
  transcodedSegmentsDuration: z.number(),
};

export const Stream = z
  .object({
    id: z.string(),
    name: z.string(),
    userId: z.string(),
    createdAt: z.number(),
    streamKey: z.string().optional().describe("absent on historic child-session objects"),
    playbackId: z.string().optional(),
    profiles: z.array(Profile),
    record: z.boolean(),
    suspended: z.boolean(),
    isActive: z.boolean(),
    lastSeen: z.number().optional(),
    multistream: z.object({ targets: z.array(TargetRef) }),
    playbackPolicy: PlaybackPolicy.optional().describe("absent: public to anyone with the playback id"),
    reconnectWindow: z
      .number()
      .optional()
      .describe(
        "Castline addition: the reconnect window (seconds) its next broadcast gets, the deployment's default unless set; absent on historic child-session objects",
      ),
    parentId: z.string().optional().describe("present only on historic child-session stream objects"),
    health: IngestHealth.optional().describe("ingest health of the current broadcast, while live"),
    viewerCount: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "Castline addition: how many viewers are pulling the live stream now, across every app instance and edge (distinct by address and browser, seen within the last 15 s); while live, on GET /stream/{id} and on each stream of GET /stream (not on historic child-session objects)",
      ),
    ...counters,
  })
  .meta({ id: "Stream" });
export type Stream = z.infer<typeof Stream>;
