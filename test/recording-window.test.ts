import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { signAccessJwt } from "@livepeer/core/crypto";
import { Livepeer } from "livepeer";
import type { Session } from "@/lib/sessions/schema";
import { BASE, newAccount, type Api } from "./support/client";
import { broadcastFor, decodes, ffprobe, until } from "./support/media";

/**
 * The reconnect window is the creator's choice per stream (Mux's `reconnectWindow`): a session
 * keeps the one it started with; while it is open the recording already plays, whole and closed;
 * and the stream's playback info offers it as Livepeer's `meta.dvrPlayback`.
 */

/** The suite's deployment default (scripts/test.ts). */
const DEFAULT_WINDOW_S = Number(process.env.RECORDING_RECONNECT_WINDOW_S);

const sessionsOf = async (api: Api, streamId: string) => (await api.get(`stream/${streamId}/sessions`)).body as Session[];

const extinfTotal = (playlist: string) => [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, [, d]) => sum + Number(d), 0);

describe("the reconnect window", { concurrency: false }, () => {
  test("is a stream setting: set on create and PATCH, shown, validated (422, nothing changed), null for the default", async () => {
    const api = await newAccount();
    const plain = (await api.post("stream", { name: "default window" })).body;
    assert.equal(plain.reconnectWindow, DEFAULT_WINDOW_S, "unset: the deployment's default");
    const zero = await api.post("stream", { name: "no window", record: true, reconnectWindow: 0 });
    assert.equal(zero.status, 201);
    assert.equal(zero.body.reconnectWindow, 0);

    for (const bad of [-1, 1801, 1.5, "60", null, true]) {
      const refused = await api.post("stream", { name: `bad ${String(bad)}`, reconnectWindow: bad });
      assert.equal(refused.status, 422, `create with ${JSON.stringify(bad)}`);
      assert.match(refused.body.errors.join(" "), /reconnectWindow/);
      const patched = await api.patch(`stream/${plain.id}`, { reconnectWindow: bad === null ? "" : bad, name: "renamed" });
      assert.equal(patched.status, 422, `PATCH with ${JSON.stringify(bad)}`);
    }
    assert.equal((await api.get("stream?streamsonly=1")).body.length, 2, "no stream was made by a refused create");
    const unchanged = (await api.get(`stream/${plain.id}`)).body;
    assert.equal(unchanged.name, "default window", "a refused PATCH changed nothing");
    assert.equal(unchanged.reconnectWindow, DEFAULT_WINDOW_S);

    assert.equal((await api.patch(`stream/${plain.id}`, { reconnectWindow: 1800 })).status, 204);
    assert.equal((await api.get(`stream/${plain.id}`)).body.reconnectWindow, 1800);
    assert.equal((await api.patch(`stream/${plain.id}`, { reconnectWindow: null })).status, 204);
    assert.equal((await api.get(`stream/${plain.id}`)).body.reconnectWindow, DEFAULT_WINDOW_S, "null: back to the default");

    // The SDK reads the stream (it does not know the field, and must still take the answer).
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    assert.equal((await sdk.stream.get(zero.body.id)).stream!.name, "no window");
  });

  test("0: the recording is finalized as soon as the encoder stops, and a publish after it is a new broadcast", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "no window", record: true, reconnectWindow: 0 })).body;
    const stoppedAt = await broadcastFor(api, stream, 4);
    const [ended] = await sessionsOf(api, stream.id);
    assert.equal(ended.reconnectWindow, 0);

    const asset = await until("the recording's asset", async () => (await api.get("asset")).body[0], 30_000, 100);
    assert.deepEqual(asset.source, { type: "recording", sessionId: ended.id, streamId: stream.id });
    const madeAfterEnd = asset.createdAt - ended.endedAt!;
    console.log(`# asset made ${madeAfterEnd} ms after the session ended (${asset.createdAt - stoppedAt} ms after the encoder stopped)`);
    assert.ok(madeAfterEnd < DEFAULT_WINDOW_S * 1000, `the asset was made ${madeAfterEnd} ms after the end: no window was waited for`);
    const ready = await until(
      "recording ready",
      async () => {
        const s = (await api.get(`session/${ended.id}`)).body;
        return s.recordingStatus === "ready" ? s : undefined;
      },
      90_000,
      250,
    );
    console.log(`# recording ready ${Date.now() - stoppedAt} ms after the encoder stopped`);
    assert.ok(ready.mp4Url);

    await broadcastFor(api, stream, 2);
    assert.equal((await sessionsOf(api, stream.id)).length, 2, "nothing to reconnect to: a new session");
  });

  test("while it is open the recording plays whole and closed, the playback info offers it, and a reconnect continues it", async () => {
    const api = await newAccount();
    const stream = (await api.post("stream", { name: "with window", record: true, reconnectWindow: 120 })).body;
    await broadcastFor(api, stream, 6);
    const [waiting] = await sessionsOf(api, stream.id);
    assert.equal(waiting.recordingStatus, "waiting");
    assert.equal(waiting.reconnectWindow, 120);

    const recordingUrl = waiting.recordingUrl!;
    const playlist = await (await fetch(recordingUrl)).text();
    assert.match(playlist, /#EXT-X-PLAYLIST-TYPE:VOD/);
    assert.match(playlist, /#EXT-X-ENDLIST\n$/, "closed: the encoder stopped");
    const listed = extinfTotal(playlist);
    assert.ok(Math.abs(listed - 6) <= 1.5, `the recording lists ${listed} s of the 6 s sent`);
    // Every frame of it plays, through its own playlist, as a player reads it.
    await decodes(recordingUrl);
    const probed = Number((await ffprobe(recordingUrl)).format.duration);
    assert.ok(Math.abs(probed - 6) <= 1.5, `the recording plays ${probed} s of the 6 s sent`);

    const info = (await api.get(`playback/${stream.playbackId}`)).body;
    assert.equal(info.type, "live");
    assert.equal(info.meta.live, 0);
    assert.deepEqual(info.meta.dvrPlayback, [{ hrn: "HLS (TS)", type: "html5/application/vnd.apple.mpegurl", url: waiting.recordingUrl }]);
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    assert.equal((await sdk.playback.get(stream.playbackId)).playbackInfo!.meta.dvrPlayback![0].url, waiting.recordingUrl, "the SDK reads it");

    // A later edit is for later broadcasts: this one keeps its 120 s.
    assert.equal((await api.patch(`stream/${stream.id}`, { reconnectWindow: 0 })).status, 204);
    await broadcastFor(api, stream, 4);
    const sessions = await sessionsOf(api, stream.id);
    assert.equal(sessions.length, 1, "the reconnect continued the same session");
    assert.equal(sessions[0].id, waiting.id);
    assert.equal(sessions[0].reconnectWindow, 120);
    const both = await (await fetch(recordingUrl)).text();
    assert.match(both, /#EXT-X-DISCONTINUITY/);
    const total = extinfTotal(both);
    assert.ok(Math.abs(total - 10) <= 2.5, `the recording lists ${total} s of the 10 s sent in two parts`);
    assert.equal((await api.get(`playback/${stream.playbackId}`)).body.meta.dvrPlayback[0].url, waiting.recordingUrl);
  });

  test("the replay in the playback info is gated by the recording's policy, not the stream's of now", async () => {
    const api = await newAccount();
    const key = (await api.post("access-control/signing-key")).body;
    const stream = (await api.post("stream", { name: "private show", record: true, reconnectWindow: 120, playbackPolicy: { type: "jwt" } })).body;
    await broadcastFor(api, stream, 3);
    // Made public after the broadcast: its recording stays as private as the broadcast was.
    assert.equal((await api.patch(`stream/${stream.id}`, { playbackPolicy: null })).status, 204);

    const anonymous = await fetch(`${BASE}/api/playback/${stream.playbackId}`);
    assert.equal(anonymous.status, 200);
    assert.equal((await anonymous.json()).meta.dvrPlayback, undefined, "no replay for a viewer the recording's policy refuses");

    const jwt = await signAccessJwt({
      privateKey: key.privateKey,
      publicKey: key.publicKey,
      issuer: "https://example.com",
      playbackId: stream.playbackId,
      expiration: 600,
    });
    const info = await (await fetch(`${BASE}/api/playback/${stream.playbackId}`, { headers: { "Livepeer-Jwt": jwt } })).json();
    const url = new URL(info.meta.dvrPlayback[0].url);
    assert.ok(url.searchParams.get("tkn"), "the replay's URL carries the viewer's playback token");
    const admitted = await fetch(url);
    assert.equal(admitted.status, 200);
    assert.match(await admitted.text(), /#EXT-X-ENDLIST/);
    url.searchParams.delete("tkn");
    assert.equal((await fetch(url)).status, 401, "without it the recording stays private");
  });
});
