import type { EventType } from "inngest";
import type { z } from "zod";
import { inngest } from "./client";
import { usesInngestServer } from "./mode";
import { insertEvents } from "./store";

// biome-ignore lint/suspicious/noExplicitAny: any event type; EventData derives each one's own payload
type AnyEventType = EventType<string, any>;
/** The payload an event type takes (lib/jobs/events.ts): its schema's input, or any object without one. */
export type EventData<T extends AnyEventType> = T["schema"] extends z.ZodType ? z.input<T["schema"]> : Record<string, unknown>;

/**
 * The only way code starts background work: one event of a declared type (lib/jobs/events.ts),
 * its payload checked against the type's schema. It goes to the Inngest server when one is
 * configured, else it is stored with a run for every function it triggers and the built-in
 * driver is woken. `id` de-duplicates repeated sends. Returns the event id.
 */
export async function emit<T extends AnyEventType>(type: T, data: EventData<T>, opts: { id?: string } = {}): Promise<string> {
  const [id] = await emitEach(type, [{ data, id: opts.id }]);
  return id;
}

/** emit() for several events of one type, in one round trip. */
export async function emitEach<T extends AnyEventType>(type: T, events: { data: EventData<T>; id?: string }[]): Promise<string[]> {
  if (!events.length) return [];
  const checked = events.map((e) => ({ name: type.name, data: payload(type, e.data), id: e.id }));
  if (usesInngestServer()) {
    const { ids } = await inngest.send(checked);
    return ids;
  }
  return insertEvents(checked);
}

function payload(type: AnyEventType, data: unknown): Record<string, unknown> {
  const schema = type.schema as z.ZodType<Record<string, unknown>> | undefined;
  return schema ? schema.parse(data) : ((data ?? {}) as Record<string, unknown>);
}
