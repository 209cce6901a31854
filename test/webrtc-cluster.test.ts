import assert from "node:assert/strict";
import { test } from "node:test";
import { scenarioInNamespace } from "./support/in-namespace";

/**
 * WebRTC on many machines (test/support/webrtc-cluster.ts, in a network namespace of its own):
 * WHIP through one app instance, WHEP through another, and a media node lost mid-WHIP.
 */
test("WHIP through instance 1 lands on a node, WHEP through instance 2 plays it; kill -9 of that node ends the session within the lost-node time, and publishing again continues it on the other node", async () => {
  const { seen, out } = await scenarioInNamespace("test/support/webrtc-cluster.ts");
  assert.equal(seen.error, undefined, `${seen.error}\n${out.slice(-3000)}`);
  assert.equal(seen.publish.status, 201);
  assert.ok(seen.landedOn === 0 || seen.landedOn === 1, "the publish runs on one of the nodes");
  assert.equal(seen.whepViaOther.framed, true, `WHEP through the other instance plays: ${JSON.stringify(seen.whepViaOther)}`);
  assert.ok(seen.endedAfterMs < (10 + 6) * 1000, `the session ended ${seen.endedAfterMs} ms after the kill (lost after 10 s)`);
  assert.equal(seen.againOn, 1 - seen.landedOn, "published again, on the other node");
  assert.equal(seen.sessions, 1, "the same session went on");
  assert.equal(seen.deleteStatus, 200);
  assert.equal(seen.ended, true);
  console.log(`landed on node ${seen.landedOn + 1}; ended ${seen.endedAfterMs} ms after its node's kill -9; went on on node ${seen.againOn + 1}`);
});
