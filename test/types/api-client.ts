/**
 * Checked by `npm run typecheck` (never run): a call's params, query and body are typed by its
 * operation's declaration, and so is its answer (lib/api/client.ts). Each @ts-expect-error fails
 * the type check once the line under it compiles.
 */
import { call, RawBody } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import type { Stream } from "@/lib/streams/schema";

export async function calls() {
  const created: Stream = await call(operations.createStream, { body: { name: "show" } });
  const got: Stream = await call(operations.getStream, { params: { id: created.id } });
  const page = await call(operations.listStreams, { query: { limit: 10, cursor: "c", filters: "[]" } });
  const first: Stream | undefined = page.items[0];
  const next: string | undefined = page.nextCursor;
  const nothing: undefined = await call(operations.deleteStream, { params: { id: got.id } });
  const me = await call(operations.getMe);
  await call(operations.getDelivery, { params: { id: "w", logId: "l" } });
  await call(operations.createSigningKey);
  await call(operations.createTextTrack, { params: { id: "a" }, query: { language: "fr" }, body: new RawBody("WEBVTT", "text/vtt") });
  void [first, next, nothing, me.email];

  // @ts-expect-error a path parameter is missing
  await call(operations.getStream, { params: {} });
  // @ts-expect-error the path has no {streamId}
  await call(operations.getStream, { params: { streamId: "s" } });
  // @ts-expect-error {logId} is needed besides {id}
  await call(operations.getDelivery, { params: { id: "w" } });
  // @ts-expect-error getStream has params: the input cannot be left out
  await call(operations.getStream);
  // @ts-expect-error a body field the schema does not have
  await call(operations.createStream, { body: { name: "show", title: "no such field" } });
  // @ts-expect-error a body field of the wrong type
  await call(operations.updateStream, { params: { id: "s" }, body: { record: "yes" } });
  // @ts-expect-error createStream needs its body
  await call(operations.createStream, {});
  // @ts-expect-error getStream takes no body
  await call(operations.getStream, { params: { id: "s" }, body: { name: "x" } });
  // @ts-expect-error a query field the list does not take
  await call(operations.listStreams, { query: { page: 2 } });
  // @ts-expect-error a paged answer is a page, not an array
  const asArray: Stream[] = await call(operations.listStreams);
  // @ts-expect-error no content answers nothing
  const deleted: Stream = await call(operations.deleteStream, { params: { id: "s" } });
  void [asArray, deleted];
}
