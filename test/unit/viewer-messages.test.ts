import assert from "node:assert/strict";
import { test } from "node:test";
import { viewerMessage, type NotPlaying } from "@/lib/playback/viewer-message";

const said = (state: NotPlaying) => {
  const { title, hint } = viewerMessage(state);
  return `${title} ${hint}`;
};

test("the player names what it refuses: a private stream is a stream, a private video a video", () => {
  assert.equal(viewerMessage({ status: "private", kind: "stream" }).title, "This stream is private");
  assert.equal(viewerMessage({ status: "private", kind: "video" }).title, "This video is private");
  assert.equal(viewerMessage({ status: "refused", refusal: "refused", kind: "stream", reason: "the JWT is malformed" }).title, "You can’t watch this stream");
  assert.equal(viewerMessage({ status: "refused", refusal: "refused", kind: "stream", reason: "the JWT is malformed" }).hint, "The JWT is malformed.");
});

test("a link is said to have expired only when the server said so", () => {
  assert.equal(viewerMessage({ status: "refused", refusal: "expired", kind: "video", reason: "the JWT expired" }).title, "This link has expired");
  const notExpired: NotPlaying[] = [
    { status: "private", kind: "video" },
    { status: "refused", refusal: "refused", kind: "video", reason: "the access webhook refused this access key (403)" },
    { status: "refused", refusal: "site-not-allowed", kind: "stream", reason: "this stream plays only on its allowed sites" },
    { status: "unavailable", kind: "video" },
    { status: "not-found" },
  ];
  for (const state of notExpired) assert.doesNotMatch(said(state), /expire/i, JSON.stringify(state));
});

test("an access check that failed says so, and is no refusal", () => {
  const message = viewerMessage({ status: "unavailable", kind: "stream" });
  assert.equal(message.title, "Access check unavailable");
  assert.match(message.hint, /this stream could not confirm your access.*Try again later/);
  assert.doesNotMatch(said({ status: "unavailable", kind: "stream" }), /refused|can’t watch/i);
});
