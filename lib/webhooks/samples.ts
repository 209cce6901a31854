import type { WebhookEvent } from "./events";

/**
 * Example objects for test deliveries (POST /webhook/{id}/test), shaped like the
 * real events' so receivers can be checked end to end. `payload.sample` is true.
 */
export function sampleEvent(event: WebhookEvent, userId: string) {
  const now = Date.now();
  const stream = {
    id: "sample-stream",
    name: "Sample stream",
    userId,
    createdAt: now,
    playbackId: "samplesampleplay",
    profiles: [{ name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 }],
    record: event.startsWith("recording."),
    suspended: false,
    isActive: event !== "stream.idle",
    lastSeen: now,
    multistream: { targets: [] },
  };
  const session = { id: "sample-session", parentId: stream.id, name: stream.name, createdAt: now, record: stream.record };
  const asset = {
    id: "sample-asset",
    name: "Sample video",
    userId,
    playbackId: "sampleassetplay0",
    createdAt: now,
    status: { phase: event === "asset.failed" ? "failed" : "ready", updatedAt: now },
  };
  const task = {
    id: "sample-task",
    type: "import",
    userId,
    outputAssetId: asset.id,
    createdAt: now,
    status: { phase: event.replace("task.", ""), updatedAt: now },
  };

  const [kind] = event.split(".");
  switch (kind) {
    case "stream":
    case "recording":
      return { stream, payload: { sample: true, session } };
    case "multistream":
      return { stream, payload: { sample: true, session, target: { id: "sample-target", name: "Sample target", profile: "720p" } } };
    case "asset":
      return { payload: { sample: true, asset } };
    case "playback":
      return { payload: { sample: true, accessKey: "sample-access-key", context: {}, playbackId: asset.playbackId } };
    default:
      return { payload: { sample: true, task } };
  }
}
