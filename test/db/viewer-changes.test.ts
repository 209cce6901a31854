import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { followViewerChanges, streamByPlayback } from "@/lib/delivery/content";
import { ownWritesSeen } from "@/lib/delivery/own-writes";
import { createStream, updateStream } from "@/lib/streams/service";
import { createUser } from "@/lib/users/service";

/**
 * The viewer plane's cache on the real database: a change committed by any connection is
 * announced by the triggers and drops what it touched, and a write's own instance sees it as soon
 * as `ownWritesSeen()` resolves (what the API waits for before answering a write).
 */
describe("viewer content follows the database's announcements", () => {
  let stop: () => Promise<void>;
  before(async () => {
    stop = await followViewerChanges();
  });
  after(() => stop());

  test("after ownWritesSeen, a changed playback policy is what the cache answers, every time", async () => {
    const user = await createUser({ email: `viewer-changes-${Date.now()}@example.com` });
    const stream = await createStream(user.id, { name: "policy flips" });
    for (let i = 0; i < 20; i++) {
      const type = i % 2 ? "public" : "jwt";
      // Cached before the change: the next read would be served from memory.
      assert.ok(await streamByPlayback(stream.playbackId!));
      await updateStream(user.id, stream.id, { playbackPolicy: { type } });
      await ownWritesSeen();
      assert.equal((await streamByPlayback(stream.playbackId!))?.playbackPolicy?.type, type, `round ${i}`);
    }
  });

  test("without a listener it answers at once", async () => {
    await stop();
    const started = performance.now();
    await ownWritesSeen();
    assert.ok(performance.now() - started < 50);
    stop = await followViewerChanges();
  });
});
