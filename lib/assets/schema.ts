import { z } from "zod";
import { PlaybackPolicy, PlaybackPolicyInput } from "@/lib/access/schema";
import { FiltersParam, NameSearch, OrderParam, SecondsRange, TimeRange } from "@/lib/api/list-query";
import { JsonObject } from "@/lib/json";
import { HttpUrl } from "@/lib/net/http-url";
import { Task } from "@/lib/tasks/schema";

export const ASSET_PHASES = ["waiting", "uploading", "processing", "ready", "failed", "deleted"] as const;
export type AssetPhase = (typeof ASSET_PHASES)[number];

const VideoTrack = z.object({
  type: z.literal("video"),
  codec: z.string().describe("the source's own codec (ffprobe's name: h264, hevc, vp9, av1, prores, ...); what plays is H.264"),
  fps: z.number().optional(),
  width: z.number(),
  height: z.number(),
  bitrate: z.number().optional(),
  duration: z.number().optional(),
  pixelFormat: z.string().optional(),
});
const AudioTrack = z.object({
  type: z.literal("audio"),
  codec: z.string().describe("the source's own codec (aac, opus, mp3, pcm_s16le, ...); what plays is AAC"),
  bitrate: z.number().optional(),
  channels: z.number().optional(),
  duration: z.number().optional(),
  sampleRate: z.number().optional(),
});

export const VideoSpec = z
  .object({
    format: z.string().describe("the source's container as uploaded: mp4, mov, 3gp, webm, mkv, avi, mpegts, mpeg, flv, ogg or asf"),
    duration: z.number().describe("seconds"),
    bitrate: z.number().optional(),
    tracks: z.array(z.discriminatedUnion("type", [VideoTrack, AudioTrack])),
  })
  .meta({ id: "VideoSpec" });
export type VideoSpec = z.infer<typeof VideoSpec>;

export const Hash = z.object({ hash: z.string(), algorithm: z.string() });
export type Hash = z.infer<typeof Hash>;

const IpfsFile = z.object({ cid: z.string(), url: z.string(), gatewayUrl: z.string() });

/** Where an IPFS export put the asset (Livepeer's shape). */
export const AssetIpfsStorage = IpfsFile.extend({
  spec: z.object({ nftMetadata: z.record(z.string(), z.unknown()).optional() }),
  nftMetadata: IpfsFile,
  updatedAt: z.number(),
});
export type AssetIpfsStorage = z.infer<typeof AssetIpfsStorage>;

/** Where the asset was exported to (`storage`). */
export const AssetStorage = z.object({ ipfs: AssetIpfsStorage.optional() });
export type AssetStorage = z.infer<typeof AssetStorage>;

/** Where exports stand (`status.storage`): IPFS's last task and its CIDs. */
export const AssetStorageStatus = z.object({
  ipfs: z.object({
    taskIds: z.object({ last: z.string() }),
    data: z.object({ videoFileCid: z.string(), nftMetadataCid: z.string() }),
  }),
});
export type AssetStorageStatus = z.infer<typeof AssetStorageStatus>;

/** DELETE /asset/{id}: `?purge=true` (a Castline addition) takes the content down too. */
export const AssetDeleteQuery = z.strictObject({
  purge: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .describe(
      "Castline addition. true: a takedown. The asset stops playing on every path at once (playback info, HLS, MP4, thumbnails, the player page, its recording's URLs) and its stored files are removed; also for an asset deleted before. Without it the spec's delete: hidden from the API, its URLs keep working. Either way its unfinished tasks are cancelled and its jobs stop.",
    ),
});

export const AssetSource = z.discriminatedUnion("type", [
  z.object({ type: z.literal("directUpload") }),
  z.object({ type: z.literal("url"), url: z.string() }),
  z.object({
    type: z.literal("recording"),
    sessionId: z.string(),
    streamId: z.string().optional().describe("Castline addition: the session's stream (recordings made before it was added lack it)"),
  }),
  /** A clip (POST /clip) of a stream's session (sessionId) or of an asset (assetId); sourceId is the stream or asset. */
  z.object({
    type: z.literal("clip"),
    sourceId: z.string(),
    playbackId: z.string(),
    sessionId: z.string().optional(),
    assetId: z.string().optional(),
  }),
]);
export type AssetSource = z.infer<typeof AssetSource>;

export const ASSET_SOURCE_TYPES = ["directUpload", "url", "recording", "clip"] as const;

/** A filter's id is the path of the field it reads in the asset object. */
const AssetFilter = z.discriminatedUnion("id", [
  z.strictObject({ id: z.literal("name"), value: NameSearch }),
  z.strictObject({ id: z.literal("status.phase"), value: z.enum(ASSET_PHASES) }),
  z.strictObject({ id: z.literal("source.type"), value: z.enum(ASSET_SOURCE_TYPES) }),
  z.strictObject({ id: z.literal("videoSpec.duration"), value: SecondsRange }),
  z.strictObject({ id: z.literal("createdAt"), value: TimeRange }),
]);
export type AssetFilter = z.infer<typeof AssetFilter>;

export const AssetListQuery = z.object({
  filters: FiltersParam(AssetFilter).describe(
    "URL-encoded JSON [{id, value}]: name (a case-insensitive part of it), status.phase, source.type, videoSpec.duration (seconds), createdAt (ms): {gt?, lt?}",
  ),
  order: OrderParam(["createdAt", "videoSpec.duration"]),
});

export const AssetRendition = z
  .object({
    name: z.string(),
    width: z.number(),
    height: z.number(),
    bitrate: z.number().describe("bits per second asked of the encoder"),
    fps: z.number(),
    phase: z.enum(["transcoding", "ready", "failed"]),
    progress: z.number().min(0).max(1),
    errorMessage: z.string().optional(),
    mp4Url: z.string().optional().describe("the static MP4 (staticMp4: renditions up to 720p)"),
  })
  .meta({ id: "AssetRendition" });
export type AssetRendition = z.infer<typeof AssetRendition>;

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
      progress: z.number().min(0).max(1).optional(),
      errorMessage: z.string().optional(),
      storage: AssetStorageStatus.optional(),
    }),
    source: AssetSource,
    size: z.number().optional().describe("bytes"),
    hash: z.array(Hash).optional(),
    videoSpec: VideoSpec.optional(),
    storage: AssetStorage.optional(),
    playbackUrl: z.string().optional().describe("HLS, once the asset is ready"),
    downloadUrl: z.string().optional().describe("{CDN_URL}/asset/<playbackId>/video, once the asset is ready"),
    playbackPolicy: PlaybackPolicy.optional().describe("absent: public to anyone with the playback id"),
    renditions: z.array(AssetRendition).optional().describe("Castline's addition: the ABR ladder as it is transcoded (on GET /asset/{id})"),
  })
  .meta({ id: "Asset" });
export type Asset = z.infer<typeof Asset>;

const Name = z.string().trim().min(1, "must not be empty").max(500);

/** One rung of a VOD ladder as asked for (Livepeer's transcode profile); H.264 is what Castline encodes. */
export const TranscodeProfile = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^\w[\w.-]*$/, "letters, digits, '.', '_' or '-', starting with a letter or digit")
      .optional(),
    width: z.number().int().min(16).max(7680).optional(),
    height: z.number().int().min(16).max(4320).optional(),
    bitrate: z.number().int().min(50_000).max(100_000_000).describe("bits per second"),
    quality: z.number().int().min(0).max(51).optional().describe("constant quality (x264 CRF); bitrate then caps it"),
    fps: z.number().int().min(1).max(240).optional(),
    fpsDen: z.number().int().min(1).max(1001).optional(),
    gop: z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'seconds between keyframes, e.g. "2"')
      .optional(),
    profile: z.enum(["H264Baseline", "H264Main", "H264High", "H264ConstrainedHigh"]).optional(),
    encoder: z.enum(["H.264", "HEVC", "VP8", "VP9"]).optional(),
  })
  .refine((p) => !p.encoder || p.encoder === "H.264", { message: "only H.264 is supported", path: ["encoder"] })
  .meta({ id: "TranscodeProfile" });
export type TranscodeProfile = z.infer<typeof TranscodeProfile>;

const TranscodeProfiles = z
  .array(TranscodeProfile)
  .min(1)
  .max(8)
  .superRefine((profiles, ctx) => {
    const seen = new Set<string>();
    profiles.forEach((p, i) => {
      const name = p.name ?? (p.height ? `${p.height}p` : undefined);
      if (name === "source") ctx.addIssue({ code: "custom", path: [i, "name"], message: '"source" is reserved for the original rendition' });
      if (name && seen.has(name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `two profiles are named "${name}"` });
      if (name) seen.add(name);
    });
  });

/** What a new asset's renditions are to be: on request-upload and import. */
const TranscodeOptions = {
  profiles: TranscodeProfiles.optional().describe("the ABR ladder; default: derived from the source (1080p, 720p, 480p, 360p, never above it)"),
  staticMp4: z.boolean().optional().describe("also make MP4 files of the renditions up to 720p, listed in the playback info"),
};
export type TranscodeOptions = { profiles?: TranscodeProfile[]; staticMp4?: boolean };

const Policy = { playbackPolicy: PlaybackPolicyInput.optional().describe("who may watch it; absent or null: public") };

export const RequestUpload = z.strictObject({ name: Name, ...TranscodeOptions, ...Policy }).meta({ id: "RequestUploadPayload" });
export type RequestUpload = z.infer<typeof RequestUpload>;

export const UploadRequested = z
  .object({
    url: z.string().describe("PUT the file here, no API key: pre-signed, for this asset only, until it expires"),
    tusEndpoint: z.string().describe("tus 1.0 endpoint for resumable uploads of the same asset"),
    asset: Asset,
    task: Task,
  })
  .meta({ id: "UploadRequested" });
export type UploadRequested = z.infer<typeof UploadRequested>;

export const UploadReceived = z.object({ asset: Asset }).meta({ id: "UploadReceived" });

export const ImportAsset = z.strictObject({ url: HttpUrl, name: Name, ...TranscodeOptions, ...Policy }).meta({ id: "ImportAssetPayload" });
export type ImportAsset = z.infer<typeof ImportAsset>;

/** PATCH /asset/{id}: the fields that may change (Livepeer's creatorId and storage are not kept). */
export const AssetPatch = z.strictObject({ name: Name.optional(), ...Policy }).meta({ id: "AssetPatchPayload" });
export type AssetPatch = z.infer<typeof AssetPatch>;

export const AssetWithTask = z.object({ asset: Asset, task: Task }).meta({ id: "AssetWithTask" });
export type AssetWithTask = z.infer<typeof AssetWithTask>;

export const Pinning = z.union(
  [z.strictObject({ jwt: z.string().min(1).max(4096) }), z.strictObject({ apiKey: z.string().min(1).max(512), apiSecret: z.string().min(1).max(512) })],
  { message: "give either jwt, or apiKey together with apiSecret" },
);

export const ExportAsset = z
  .strictObject({
    ipfs: z
      .strictObject({
        pinning: Pinning.optional(),
        nftMetadata: JsonObject.optional().describe("deep-merged into the default NFT metadata"),
      })
      .optional(),
    custom: z
      .strictObject({
        url: HttpUrl,
        method: z.enum(["PUT", "POST"]).default("PUT"),
        headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~\w-]+$/, "must be a valid header name"), z.string().max(8192)).optional(),
      })
      .optional(),
  })
  .refine((b) => Boolean(b.ipfs) !== Boolean(b.custom), { message: "give exactly one of ipfs or custom" })
  .meta({ id: "ExportTaskParams" });
export type ExportAsset = z.infer<typeof ExportAsset>;
/** An export as a client sends it (defaults not yet applied). */
export type ExportRequest = z.input<typeof ExportAsset>;
export type Pinning = z.infer<typeof Pinning>;

export const ExportStarted = z.object({ task: Task }).meta({ id: "ExportStarted" });
export type ExportStarted = z.infer<typeof ExportStarted>;

const Language = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a BCP 47 language tag such as en, pt-BR or zh-Hans")
  .max(35)
  .describe("BCP 47");
const TrackName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100)
  .regex(/^[^\x00-\x1f\x7f"]*$/, 'must not contain control characters or "')
  .describe("shown in players' captions menus; default: the language's English name");

/** Captions from a URL (JSON); an upload sends the file itself with the same fields in the query. */
export const TextTrackFromUrl = z.strictObject({ language: Language, name: TrackName.optional(), url: HttpUrl }).meta({ id: "TextTrackFromUrl" });
export type TextTrackFromUrl = z.infer<typeof TextTrackFromUrl>;
export const TextTrackQuery = z.object({
  language: Language.optional().describe("required with an uploaded file"),
  name: TrackName.optional(),
});
export type TextTrackQuery = z.infer<typeof TextTrackQuery>;

export const TextTrack = z
  .object({
    id: z.string(),
    assetId: z.string(),
    language: z.string(),
    name: z.string(),
    format: z.enum(["vtt", "srt"]).describe("what was given; it is served as WebVTT"),
    createdAt: z.number(),
    url: z.string().describe("the captions as WebVTT (public, like the playbackUrl)"),
  })
  .meta({ id: "TextTrack" });
export type TextTrack = z.infer<typeof TextTrack>;
