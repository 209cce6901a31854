import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { parseCaptions } from "@/lib/assets/captions";
import { Refusal } from "@/lib/errors";
import { fetchSmallFile } from "@/lib/net/download";

process.env.ALLOW_PRIVATE_URLS = "false";

const bytes = (text: string) => new TextEncoder().encode(text);
const refusal = (text: string | Uint8Array, duration?: number) => {
  try {
    parseCaptions(typeof text === "string" ? bytes(text) : text, duration);
  } catch (err) {
    assert.ok(err instanceof Refusal && err.kind === "unprocessable", String(err));
    return err.message;
  }
  assert.fail("accepted");
};

test("WebVTT is kept as written, with the timestamp map that aligns it with our TS segments", () => {
  const vtt =
    "\uFEFFWEBVTT - film\r\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\r\n\r\nNOTE a note\r\n\r\nintro\r\n00:01.000 --> 00:02.500 align:start\r\nHello <i>world</i>\r\n\r\n00:00:03.000 --> 00:00:04.000\r\nBye\r\n";
  const out = parseCaptions(bytes(vtt), 10);
  assert.equal(out.format, "vtt");
  assert.equal(out.cues, 2);
  assert.equal(
    out.vtt,
    "WEBVTT - film\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\nNOTE a note\n\nintro\n00:01.000 --> 00:02.500 align:start\nHello <i>world</i>\n\n00:00:03.000 --> 00:00:04.000\nBye\n",
  );
});

test("SRT becomes WebVTT: times with a dot, font tags and overrides dropped, & escaped", () => {
  const srt =
    '1\n00:00:01,000 --> 00:00:02,000\n<font color="red">Tom & Jerry</font>\n\n2\n00:00:02,500 --> 00:00:03,000 X1:10 X2:20 Y1:1 Y2:2\n{\\an8}<b>Up</b> here\n';
  const out = parseCaptions(bytes(srt), 10);
  assert.equal(out.format, "srt");
  assert.equal(
    out.vtt,
    "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n1\n00:00:01.000 --> 00:00:02.000\nTom &amp; Jerry\n\n2\n00:00:02.500 --> 00:00:03.000\n<b>Up</b> here\n",
  );
});

test("every unusable file is refused with where and why", () => {
  assert.match(refusal(""), /empty/);
  assert.match(refusal("WEBVTT\n"), /no cues/);
  assert.match(refusal("\n\n  \n"), /no cues/);
  assert.match(refusal(new Uint8Array([0xff, 0xfe, 0x00, 0x41])), /not UTF-8/);
  assert.match(refusal("WEBVTT\n\n00:01.000 --> 00:02.000\nA\u0000B\n"), /^line 4: .*not text/);
  assert.match(refusal("hello there\nthis is prose\n"), /^line 1: neither WebVTT .* nor SubRip/);
  assert.match(refusal("WEBVTT\n\n00:01.000 -> 00:02.000\nA\n"), /^line 3: expected a cue timing/);
  assert.match(refusal("WEBVTT\n\n00:01.000 --> 00:02,000\nA\n"), /^line 3: "00:02,000" is not a time/);
  assert.match(refusal("WEBVTT\n\n00:01.000 --> 00:61.000\nA\n"), /^line 3: "00:61.000" is not a time/);
  assert.match(refusal("WEBVTT\n00:01.000 --> 00:02.000\nA\n"), /^line 2: a blank line must separate/);
  assert.match(refusal("WEBVTT\n\n00:01.000 --> 00:02.000\nA\n00:03.000 --> 00:04.000\nB\n"), /^line 5: .*blank line missing/);
  assert.match(refusal("WEBVTT\n\n00:05.000 --> 00:02.000\nA\n"), /^line 3: the cue ends \(00:00:02.000\) before it starts/);
  assert.match(refusal("WEBVTT\n\n10:00:00.000 --> 10:00:01.000\nA\n", 60), /^line 3: the cue starts at 10:00:00.000, after the video ends \(00:01:00.000\)/);
  assert.match(refusal("1\n00:00:01,000 --> 00:00:02,000\nA\n\nB\n00:00:03,000 --> 00:00:04,000\nC\n"), /^line 5: expected a cue number/);
  assert.match(refusal("1\n00:00:01.000 -> 00:00:02.000\nA\n"), /^line 2: expected a cue timing like "00:00:01,000 --> 00:00:02,000"/);
  assert.match(refusal("1\n"), /^line 2: expected a cue timing/);
  assert.match(refusal(bytes("WEBVTT\n\n" + "00:01.000 --> 00:02.000\nA\n\n".repeat(250_000))), /over 5242880 bytes/);
});

test("captions from a URL: private addresses are refused, by literal or by name, before any request", async () => {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    res.end("WEBVTT\n\n00:01.000 --> 00:02.000\nA\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const opts = { limit: 1000, timeoutMs: 5000 };
    await assert.rejects(fetchSmallFile(`http://127.0.0.1:${port}/en.vtt`, opts), /127\.0\.0\.1 is a private address/);
    await assert.rejects(fetchSmallFile(`http://localhost:${port}/en.vtt`, opts), /localhost is a private address/);
    await assert.rejects(fetchSmallFile(`http://[::ffff:127.0.0.1]:${port}/en.vtt`, opts), /private address/);
    assert.equal(requests, 0);
  } finally {
    server.close();
  }
});
