import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { Livepeer } from "livepeer";
import { operations } from "@/lib/api/operations";
import { BASE, newAccount, type Api } from "./support/client";
import { ffprobe } from "./support/media";
import { download, firstSegmentUrl, makeMedia, putFile, settled, tmpDir } from "./support/vod";

const tmp = tmpDir();

const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHello from Castline\n";
const SRT = "1\n00:00:00,500 --> 00:00:02,000\nBonjour <i>tout le monde</i>\n\n2\n00:00:02,500 --> 00:00:03,500\nAu revoir\n";

/** POSTs a caption file as the body, as curl --data-binary would. */
async function postFile(api: Api, assetId: string, body: string | Uint8Array, type: string, query = "language=en") {
  const res = await fetch(`${BASE}/api/asset/${assetId}/text-tracks?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}`, "content-type": type },
    body: body as BodyInit,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

async function text(url: string) {
  const res = await fetch(url);
  assert.equal(res.status, 200, `GET ${url}`);
  return res.text();
}

describe("captions", () => {
  let api: Api;
  let asset: { id: string; playbackId: string; playbackUrl: string };
  /** Serves the SRT (after a redirect) and a 404, as a user's file host would. */
  let server: http.Server;
  let files: string;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/moved.srt") res.writeHead(302, { location: "/subs.srt" }).end();
      else if (req.url === "/subs.srt") res.writeHead(200, { "content-type": "application/x-subrip" }).end(SRT);
      else res.writeHead(404).end("no");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    files = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    api = await newAccount();
    const file = await makeMedia(tmp, "mp4", { seconds: 4 });
    const requested = await api.post("asset/request-upload", { name: path.basename(file) });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    assert.equal((await putFile(requested.body.url, file)).status, 200);
    const ready = await settled(api, requested.body.asset.id);
    assert.equal(ready.status.phase, "ready", ready.status.errorMessage);
    asset = ready;
  });

  after(() => server.close());

  let english: { id: string; url: string };
  let french: { id: string; url: string };

  test("a WebVTT upload and an SRT from a URL become tracks, listed in order", async () => {
    const uploaded = await postFile(api, asset.id, VTT, "text/vtt");
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    assert.equal(uploaded.body.assetId, asset.id);
    assert.equal(uploaded.body.language, "en");
    assert.equal(uploaded.body.name, "English");
    assert.equal(uploaded.body.format, "vtt");
    assert.equal(uploaded.body.url, `${BASE}/asset/${asset.playbackId}/hls/captions/${uploaded.body.id}.vtt`);
    english = uploaded.body;

    const fetched = await api.call(operations.createTextTrack, {
      params: { id: asset.id },
      body: { language: "fr", name: "Français", url: `${files}/moved.srt` },
    });
    assert.equal(fetched.status, 201, JSON.stringify(fetched.body));
    assert.equal(fetched.body.format, "srt");
    assert.equal(fetched.body.name, "Français");
    french = fetched.body;

    // The SRT is served as WebVTT, aligned with the segments by its timestamp map.
    const vtt = await text(french.url);
    assert.match(vtt, /^WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n1\n00:00:00.500 --> 00:00:02.000\nBonjour <i>tout le monde<\/i>\n/);
    assert.equal((await fetch(english.url)).headers.get("content-type"), "text/vtt; charset=utf-8");

    const list = await api.call(operations.listTextTracks, { params: { id: asset.id } });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((t) => [t.id, t.language, t.name, t.format]),
      [
        [english.id, "en", "English", "vtt"],
        [french.id, "fr", "Français", "srt"],
      ],
    );
  });

  test("the master has a subtitles group of the tracks; each is a one-segment playlist of its WebVTT, as long as the video", async () => {
    const master = await text(asset.playbackUrl);
    const media = master.split("\n").filter((l) => l.startsWith("#EXT-X-MEDIA:"));
    assert.deepEqual(media, [
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="captions/${english.id}.m3u8"`,
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="captions/${french.id}.m3u8"`,
    ]);
    const variants = master.split("\n").filter((l) => l.startsWith("#EXT-X-STREAM-INF:"));
    assert.ok(variants.length >= 1 && variants.every((v) => v.includes('SUBTITLES="subs"')), master);

    const playlistUrl = new URL(`captions/${english.id}.m3u8`, asset.playbackUrl).toString();
    const playlist = await text(playlistUrl);
    assert.match(playlist, /#EXT-X-PLAYLIST-TYPE:VOD/);
    assert.match(playlist, /#EXT-X-ENDLIST/);
    const extinf = /#EXTINF:([\d.]+),\n(.+)\n/.exec(playlist);
    assert.ok(extinf, playlist);
    assert.ok(Math.abs(Number(extinf[1]) - 4) < 0.2, playlist);
    assert.equal(await text(new URL(extinf[2], playlistUrl).toString()), await text(english.url));
    assert.match(await text(english.url), /^WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:03.000\nHello from Castline\n$/);

    // The map's MPEGTS is where the video's segments really start (1.4 s), so cue times are video times.
    const segment = path.join(tmp, "first.ts");
    await download(await firstSegmentUrl(asset.playbackUrl), segment);
    const probe = (await ffprobe(segment)) as unknown as { streams: { codec_type: string; start_time: string }[] };
    const video = probe.streams.find((s) => s.codec_type === "video")!;
    assert.ok(Math.abs(Number(video.start_time) - 1.4) < 0.05, `video starts at ${video.start_time}`);
  });

  test("unusable files and requests are refused with the reason, and nothing is created", async () => {
    const cases: [string | Uint8Array, string, string, number, RegExp][] = [
      ["", "text/vtt", "language=en", 422, /empty/],
      [randomBytes(4096), "text/plain", "language=en", 422, /not UTF-8|not text/],
      ["WEBVTT\n\n00:01.000 --> 00:0x.000\nA\n", "text/vtt", "language=en", 422, /^line 3: "00:0x.000" is not a time/],
      [
        "1\n00:00:01,000 --> 00:00:02,000\nA\n\nB\n00:00:03,000 --> 00:00:04,000\nC\n",
        "application/x-subrip",
        "language=en",
        422,
        /^line 5: expected a cue number/,
      ],
      ["WEBVTT\n\n00:05.000 --> 00:01.000\nA\n", "text/vtt", "language=en", 422, /^line 3: the cue ends .* before it starts/],
      ["WEBVTT\n\n02:00:00.000 --> 02:00:01.000\nA\n", "text/vtt", "language=en", 422, /^line 3: the cue starts at 02:00:00.000, after the video ends/],
      ["just some words\n", "text/plain", "language=en", 422, /^line 1: neither WebVTT/],
      ["WEBVTT\n", "text/vtt", "language=en", 422, /no cues/],
      [VTT, "text/vtt", "", 422, /language: required/],
      [VTT, "text/vtt", "language=English", 422, /language: must be a BCP 47 language tag/],
      [VTT, "text/vtt", "language=en&name=%0A", 422, /name/],
      [VTT, "image/png", "language=en", 415, /content-type/],
      [new Uint8Array(6 * 1024 * 1024).fill(65), "text/vtt", "language=en", 413, /over 5242880 bytes/],
    ];
    for (const [body, type, query, status, reason] of cases) {
      const res = await postFile(api, asset.id, body, type, query);
      assert.equal(res.status, status, `${type} ${query} ${String(body).slice(0, 40)}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.errors.join("; "), reason);
    }
    const byUrl: [unknown, number, RegExp][] = [
      [{ language: "en", url: `${files}/missing.srt` }, 422, /url: the URL answered 404/],
      [{ language: "en", url: "ftp://example.com/a.srt" }, 422, /url: must be an http/],
      [{ language: "en", url: `${files}/subs.srt`, extra: 1 }, 422, /extra|Unrecognized/i],
      [{ url: `${files}/subs.srt` }, 422, /language/],
    ];
    for (const [body, status, reason] of byUrl) {
      const res = await api.post(`asset/${asset.id}/text-tracks`, body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.match(res.body.errors.join("; "), reason);
    }
    const list = await api.get(`asset/${asset.id}/text-tracks`);
    assert.deepEqual(
      list.body.map((t: { id: string }) => t.id),
      [english.id, french.id],
    );
  });

  test("another user's asset and unknown ones are not found; an asset not ready takes no captions", async () => {
    const other = await newAccount();
    assert.equal((await postFile(other, asset.id, VTT, "text/vtt")).status, 404);
    assert.equal((await other.get(`asset/${asset.id}/text-tracks`)).status, 404);
    assert.equal((await other.delete(`asset/${asset.id}/text-tracks/${english.id}`)).status, 404);
    assert.equal((await postFile(api, "00000000-0000-0000-0000-000000000000", VTT, "text/vtt")).status, 404);

    const waiting = await other.post("asset/request-upload", { name: "not yet" });
    const res = await postFile(other, waiting.body.asset.id, VTT, "text/vtt");
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.errors[0], /once the asset is ready \(phase: waiting\)/);
  });

  test("a deleted track leaves the master and its files; the asset still reads through the Livepeer SDK", async () => {
    const sdk = new Livepeer({ apiKey: api.key, serverURL: `${BASE}/api` });
    assert.equal((await sdk.asset.get(asset.id)).asset?.id, asset.id);

    assert.equal((await api.delete(`asset/${asset.id}/text-tracks/${english.id}`)).status, 204);
    assert.equal((await api.delete(`asset/${asset.id}/text-tracks/${english.id}`)).status, 404);
    const master = await text(asset.playbackUrl);
    assert.doesNotMatch(master, new RegExp(english.id));
    assert.match(master, new RegExp(`URI="captions/${french.id}.m3u8"`));
    assert.equal((await fetch(english.url)).status, 404);
    assert.equal((await fetch(new URL(`captions/${english.id}.m3u8`, asset.playbackUrl))).status, 404);
    // Nothing else in the store can be named through the captions path.
    assert.equal((await fetch(new URL("captions/..%2Fsource.vtt", asset.playbackUrl))).status, 404);
    assert.deepEqual(
      (await api.get(`asset/${asset.id}/text-tracks`)).body.map((t: { id: string }) => t.id),
      [french.id],
    );

    assert.equal((await api.delete(`asset/${asset.id}/text-tracks/${french.id}`)).status, 204);
    const plain = await text(asset.playbackUrl);
    assert.doesNotMatch(plain, /SUBTITLES/);
    assert.equal((await sdk.asset.get(asset.id)).asset?.status?.phase, "ready");
  });
});
