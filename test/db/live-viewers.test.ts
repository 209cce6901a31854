import assert from "node:assert/strict";
import { test } from "node:test";
import { inArray } from "drizzle-orm";
import { streams } from "@/db/schema";
import { NEWEST_FIRST } from "@/lib/api/list-query";
import { reportViewers, VIEWERS_FRESH_MS } from "@/lib/live/viewers";
import { createStream, getStream, listStreams } from "@/lib/streams/service";
import { createUser } from "@/lib/users/service";
import { db } from "../support/db";

/**
 * The streams list gives each live stream its viewers now, as GET /stream/{id} does (summed over
 * the instances that reported lately), from one query for the page; an idle stream has none.
 */
test("each live stream of a list page has its viewers now; idle ones have no count", async () => {
  const user = await createUser({ email: `live-viewers-${Date.now()}@example.com` });
  const [busy, empty] = [await createStream(user.id, { name: "busy" }), await createStream(user.id, { name: "nobody watching" })];
  await createStream(user.id, { name: "idle" });
  await db()
    .update(streams)
    .set({ isActive: true })
    .where(inArray(streams.id, [busy.id, empty.id]));
  const now = Date.now();
  // Two instances serve the busy stream; a third stopped reporting a while ago (left out).
  await reportViewers("instance-a", new Map([[busy.id, 3]]), now);
  await reportViewers("instance-b", new Map([[busy.id, 2]]), now);
  await reportViewers(
    "instance-c",
    new Map([
      [busy.id, 40],
      [empty.id, 7],
    ]),
    now - 2 * VIEWERS_FRESH_MS,
  );

  const page = await listStreams(user.id, { limit: 50, streamsOnly: true, filters: [], order: NEWEST_FIRST });
  const counts = Object.fromEntries(page.items.map((s) => [s.name, s.viewerCount]));
  assert.deepEqual(counts, { busy: 5, "nobody watching": 0, idle: undefined });
  assert.equal((await getStream(user.id, busy.id)).viewerCount, 5, "as the stream's own page says");
});
