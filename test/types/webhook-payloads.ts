/**
 * Checked by `npm run typecheck` (never run): announcing a webhook event with another event's
 * payload, or none, does not compile (lib/webhooks/payloads.ts). Each @ts-expect-error fails
 * the type check once the line under it compiles.
 */
import type { Asset } from "@/lib/assets/schema";
import type { Session } from "@/lib/sessions/schema";
import type { Stream } from "@/lib/streams/schema";
import type { Task } from "@/lib/tasks/schema";
import type { notifyWebhooks } from "@/lib/webhooks/notify";

declare const notify: typeof notifyWebhooks;
declare const stream: Stream;
declare const session: Session;
declare const asset: Asset;
declare const task: Task;
declare const pushState: "connected" | "error" | "disconnected";
declare const anyAssetOrTaskEvent: "asset.ready" | "task.completed";

export function announcements() {
  void notify("u", "stream.started", { stream, payload: { session } });
  void notify("u", "recording.ready", { payload: { session, asset } });
  void notify("u", `multistream.${pushState}`, { stream, payload: { session, target: { id: "t", name: "T", profile: "source" }, error: "refused" } });
  void notify("u", "asset.created", { payload: { asset } });
  void notify("u", "task.failed", { payload: { task } });

  // @ts-expect-error an asset event carries an asset, not a task
  void notify("u", "asset.created", { payload: { task } });
  // @ts-expect-error a stream event names its stream
  void notify("u", "stream.idle", { payload: { session } });
  // @ts-expect-error recording.ready carries the recording's asset too
  void notify("u", "recording.ready", { stream, payload: { session } });
  // @ts-expect-error a push event names its target
  void notify("u", `multistream.${pushState}`, { stream, payload: { session } });
  // @ts-expect-error no payload at all
  void notify("u", "task.spawned", {});
  // @ts-expect-error the access check is not announced: it asks its receiver itself
  void notify("u", "playback.accessControl", { payload: {} });
  // @ts-expect-error an event chosen at run time takes what every one of them takes
  void notify("u", anyAssetOrTaskEvent, { payload: { asset } });
}
