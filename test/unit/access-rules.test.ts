import assert from "node:assert/strict";
import { test } from "node:test";
import { recordingContent, type RecordingFacts } from "@/lib/access/recording";
import { judgeSite, outsideEmbedder, pageOrigin } from "@/lib/access/sites";

const own = (origin: string) => origin === "https://castline.example";
const allowed = ["https://good.example", "http://127.0.0.1:8080"];

test("the page a request comes from: Origin (null included), else the Referer's origin, else none", () => {
  const origin = (headers: Record<string, string>) => pageOrigin(new Headers(headers));
  assert.equal(origin({ origin: "https://good.example" }), "https://good.example");
  assert.equal(origin({ origin: "null", referer: "https://good.example/page" }), "null");
  assert.equal(origin({ origin: "https://evil.example", referer: "https://good.example/page" }), "https://evil.example");
  assert.equal(origin({ referer: "https://good.example/a/b?c=d" }), "https://good.example");
  assert.equal(origin({ referer: "not a url" }), undefined);
  // An opaque URL's origin is "null": named, and opaque.
  assert.equal(origin({ referer: "data:text/html,hi" }), "null");
  assert.equal(origin({}), undefined);
});

test("allowedOrigins: allowed sites play, other and opaque pages are refused, no page or this site's own must prove itself", () => {
  assert.equal(judgeSite(allowed, "https://good.example", own), "allowed");
  assert.equal(judgeSite(allowed, "http://127.0.0.1:8080", own), "allowed");
  assert.equal(judgeSite(allowed, "https://evil.example", own), "refused");
  assert.equal(judgeSite(allowed, "https://good.example.evil.example", own), "refused");
  assert.equal(judgeSite(allowed, "http://good.example", own), "refused", "another scheme is another site");
  assert.equal(judgeSite(allowed, "http://127.0.0.1:8081", own), "refused", "another port is another site");
  assert.equal(judgeSite(allowed, "null", own), "refused");
  assert.equal(judgeSite(allowed, undefined, own), "unnamed");
  // The player page is this site's, and any site may frame it.
  assert.equal(judgeSite(allowed, "https://castline.example", own), "unnamed");
});

test("every frame around the player page must be allowed (or this site's)", () => {
  assert.equal(outsideEmbedder(allowed, null, own), undefined);
  assert.equal(outsideEmbedder(allowed, "https://good.example", own), undefined);
  assert.equal(outsideEmbedder(allowed, "https://good.example https://castline.example", own), undefined);
  assert.equal(outsideEmbedder(allowed, "https://good.example https://evil.example", own), "https://evil.example");
  assert.equal(outsideEmbedder(allowed, "null https://good.example", own), "null");
  assert.equal(outsideEmbedder(allowed, "garbage", own), "garbage");
});

const jwt = { type: "jwt" as const };
const facts = (over: Partial<RecordingFacts>): RecordingFacts => ({
  sessionId: "session1",
  live: false,
  endedUnder: jwt,
  stream: { playbackId: "streampid", userId: "u1", playbackPolicy: null },
  ...over,
});

test("a recording is gated by its asset's policy, else the broadcast's: never by the stream's policy of later", () => {
  // Ended, no asset yet (the reconnect window, processing): the policy the broadcast ended under.
  const waiting = recordingContent(facts({}));
  assert.deepEqual(waiting.playbackPolicy, jwt, "a stream made public after a private broadcast does not open its recording");
  assert.equal(waiting.playbackId, "streampid");
  // Live: as the live stream is.
  assert.equal(recordingContent(facts({ live: true })).playbackPolicy, null);
  // An asset: its policy, whatever the stream's and the broadcast's.
  const asset = recordingContent(facts({ asset: { playbackId: "assetpid", playbackPolicy: null } }));
  assert.equal(asset.playbackPolicy, null, "the asset made public opens the recording's paths too");
  assert.deepEqual(recordingContent(facts({ endedUnder: null, asset: { playbackId: "assetpid", playbackPolicy: jwt } })).playbackPolicy, jwt);
  // A JWT may name the asset's playback id or the stream's; tokens are the recording's own.
  assert.equal(asset.playbackId, "assetpid");
  assert.deepEqual(asset.otherPlaybackIds, ["streampid"]);
  assert.equal(asset.tokenSubject, "recording:session1");
  assert.equal(waiting.tokenSubject, "recording:session1");
});
