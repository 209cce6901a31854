import type { Asset } from "@/lib/assets/schema";
import type { Session } from "@/lib/sessions/schema";
import type { Stream, TargetRef } from "@/lib/streams/schema";
import type { Target } from "@/lib/targets/schema";
import type { Task } from "@/lib/tasks/schema";
import type { ACCESS_CONTROL_EVENT, WebhookEvent } from "./events";

/** What an announced event carries: the stream it is about (its key dropped when sent), and its payload. */
export interface WebhookAbout {
  stream?: Stream;
  payload: Record<string, unknown>;
}

/** The events notifyWebhooks() announces: all but the access check, which asks its receiver itself (lib/access/webhook-policy.ts). */
export type NotificationEvent = Exclude<WebhookEvent, typeof ACCESS_CONTROL_EVENT>;

/** A map that names every announced event, each with a shape of WebhookAbout. */
type EveryEvent<T extends Record<NotificationEvent, WebhookAbout>> = T;

type OfStream<P> = { stream: Stream; payload: P };
type Push = { session: Session; target: Pick<Target, "id" | "name"> & Pick<TargetRef, "profile">; error?: string };

/**
 * What each webhook event carries, by its name: the one declaration notifyWebhooks() is typed
 * by, made of the public shapes the resources' serializers return (lib/api/guides.ts says the
 * same in words for the webhooks guide).
 */
export type WebhookPayloads = EveryEvent<{
  "stream.started": OfStream<{ session: Session }>;
  "stream.idle": OfStream<{ session: Session }>;
  "recording.started": OfStream<{ session: Session }>;
  "recording.waiting": OfStream<{ session: Session }>;
  /** Without its stream if that was deleted meanwhile. */
  "recording.ready": { stream?: Stream; payload: { session: Session; asset: Asset } };
  "multistream.connected": OfStream<Push>;
  "multistream.error": OfStream<Push>;
  "multistream.disconnected": OfStream<Push>;
  "asset.created": { payload: { asset: Asset } };
  "asset.ready": { payload: { asset: Asset } };
  "asset.updated": { payload: { asset: Asset } };
  "asset.failed": { payload: { asset: Asset } };
  "asset.deleted": { payload: { asset: Asset } };
  "task.spawned": { payload: { task: Task } };
  "task.updated": { payload: { task: Task } };
  "task.completed": { payload: { task: Task } };
  "task.failed": { payload: { task: Task } };
}>;

/**
 * What announcing any of the events E takes: the shape of each of them at once. For one event,
 * its own shape; for an event chosen at run time (`multistream.${state}`), a shape every one of
 * them accepts, so a payload cannot slip through as another event's.
 */
export type AboutEvery<E extends NotificationEvent> = AllOf<WebhookPayloads[E]>;
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (all: infer I) => void ? I : never;
