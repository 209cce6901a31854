import assert from "node:assert/strict";
import { test } from "node:test";
import { PlaybackPolicy } from "@/lib/access/schema";
import { checkPlaybackToken, playbackToken, playlistWithToken, vttWithToken, withToken } from "@/lib/access/token";

process.env.AUTH_SECRET ??= "unit-test-secret-unit-test-secret-0123456789";

test("a playback token is valid for its playback id until it expires, and for nothing else", () => {
  const now = Date.UTC(2026, 10, 23);
  const token = playbackToken("abcdabcdabcdabcd", 60, now);
  assert.equal(checkPlaybackToken(token, "abcdabcdabcdabcd", now), "valid");
  assert.equal(checkPlaybackToken(token, "abcdabcdabcdabcd", now + 59_000), "valid");
  assert.equal(checkPlaybackToken(token, "abcdabcdabcdabcd", now + 60_000), "expired");
  assert.equal(checkPlaybackToken(token, "otherplaybackid0", now), "invalid");
  const [exp, mac] = token.split(".");
  // A later expiry with the same signature, a flipped signature character, junk.
  assert.equal(checkPlaybackToken(`${(parseInt(exp, 36) + 3600).toString(36)}.${mac}`, "abcdabcdabcdabcd", now), "invalid");
  assert.equal(checkPlaybackToken(`${exp}.${mac.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`, "abcdabcdabcdabcd", now), "invalid");
  for (const junk of ["", ".", "zzzzzzzzzzzz.abc", `${exp}.${mac}x`, "../../etc/passwd"])
    assert.equal(checkPlaybackToken(junk, "abcdabcdabcdabcd", now), "invalid", junk);
});

test("playlists and thumbnail tracks name every file with the token", () => {
  assert.equal(withToken("seg_1.ts", "T"), "seg_1.ts?tkn=T");
  assert.equal(withToken("https://x/a.m3u8?x=1", "T"), "https://x/a.m3u8?x=1&tkn=T");
  assert.equal(withToken("sprite_000.jpg#xywh=0,0,160,90", "T"), "sprite_000.jpg?tkn=T#xywh=0,0,160,90");
  const master = [
    "#EXTM3U",
    '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="captions/abc.m3u8"',
    '#EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"',
    "360p/index.m3u8",
    "",
  ].join("\n");
  assert.equal(
    playlistWithToken(master, "T"),
    [
      "#EXTM3U",
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="captions/abc.m3u8?tkn=T"',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"',
      "360p/index.m3u8?tkn=T",
      "",
    ].join("\n"),
  );
  const vtt = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nsprite_000.jpg#xywh=0,0,160,90\n\n00:00:02.000 --> 00:00:04.000\nsprite_000.jpg#xywh=160,0,160,90\n";
  assert.equal(vttWithToken(vtt, "T"), vtt.replaceAll("sprite_000.jpg#", "sprite_000.jpg?tkn=T#"));
});

test("playback policies: Livepeer's shape, webhook fields only with a webhook, origins as browsers send them", () => {
  assert.ok(PlaybackPolicy.safeParse({ type: "jwt" }).success);
  assert.ok(PlaybackPolicy.safeParse({ type: "webhook", webhookId: "w", webhookContext: { plan: "gold" }, refreshInterval: 60 }).success);
  assert.ok(PlaybackPolicy.safeParse({ type: "public", allowedOrigins: ["https://example.com", "http://localhost:8080"] }).success);
  for (const bad of [
    { type: "private" },
    { type: "webhook" },
    { type: "jwt", webhookId: "w" },
    { type: "jwt", refreshInterval: 10 },
    { type: "webhook", webhookId: "w", refreshInterval: 0 },
    { type: "public", allowedOrigins: ["example.com"] },
    { type: "public", allowedOrigins: ["https://example.com/"] },
    { type: "public", allowedOrigins: ["ftp://example.com"] },
    { type: "webhook", webhookId: "w", webhookContext: { big: "x".repeat(5000) } },
  ]) {
    assert.equal(PlaybackPolicy.safeParse(bad).success, false, JSON.stringify(bad).slice(0, 80));
  }
});
