import { inngest } from "@/inngest/client";
import { usesInngestServer } from "./mode";
import { insertEvents, type EventInput } from "./store";

/** An event that starts background work; `id` de-duplicates repeated sends. */
export type JobEventInput = Pick<EventInput, "name" | "data" | "id">;

/**
 * The only way code starts background work: sends the event to the Inngest server
 * when one is configured, else stores it with a run for every function it triggers
 * and wakes the built-in driver. Returns the event id.
 */
export async function emit(event: JobEventInput): Promise<string> {
  const [id] = await emitMany([event]);
  return id;
}

/** emit() for several events in one round trip. */
export async function emitMany(events: JobEventInput[]): Promise<string[]> {
  if (!events.length) return [];
  if (usesInngestServer()) {
    const { ids } = await inngest.send(events.map((e) => ({ name: e.name, data: e.data ?? {}, id: e.id })));
    return ids;
  }
  return insertEvents(events);
}
