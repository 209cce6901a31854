import assert from "node:assert/strict";
import { test } from "node:test";
import { hostReason, isPrivateAddress } from "@/lib/net/guard";
import { redactTargetSecrets, rtmpTcUrl, splitTargetUrl } from "@/lib/targets/connect";
import { PRIVATE_HOSTS } from "../support/private-hosts";

// The guard as a production deployment has it.
process.env.ALLOW_PRIVATE_URLS = "false";

test("classifies addresses, IPv4 inside IPv6 included", () => {
  for (const a of [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1", "::1", "::",
    "fe80::1", "fe80::1%lo", "fd00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::127.0.0.1", "::7f00:1", "::a00:1",
    "64:ff9b::7f00:1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::808:808", "2002:7f00:1::", "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe", "::ffff:0:7f00:1", "not-an-ip",
  ]) {
    assert.equal(isPrivateAddress(a), true, a);
  }
  // NAT64 of a public address is how IPv6-only networks reach it
  for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "64:ff9b::8.8.8.8"]) {
    assert.equal(isPrivateAddress(a), false, a);
  }
});

test("reads hosts as getaddrinfo does: integer, octal, hex and short IPv4 forms are addresses", async () => {
  for (const host of PRIVATE_HOSTS) {
    const reason = await hostReason(host.replace(/^\[|\]$/g, ""));
    assert.match(reason ?? "", /private address|this machine/, host);
  }
  assert.equal(await hostReason("2130706433"), "2130706433 is a private address (127.0.0.1)");
  assert.equal(await hostReason("localhost"), "localhost is this machine");
  for (const host of ["93.184.216.34", "1572395042", "2606:4700:4700::1111", "64:ff9b::5db8:d822"]) assert.equal(await hostReason(host), undefined, host);
});

test("splits target URLs as ffmpeg does: the host it would resolve, wherever it is written", () => {
  const host = (url: string) => splitTargetUrl(url).host;
  assert.equal(host("rtmp://a.example.com/live/k"), "a.example.com");
  assert.equal(host("rtmp://user:pw@127.0.0.1:1935/live/k"), "127.0.0.1");
  assert.equal(host("rtmp://a@b@0x7f.1/live/k"), "0x7f.1", "userinfo ends at the last @");
  assert.equal(host("rtmp://[::ffff:127.0.0.1]:1935/live/k"), "::ffff:127.0.0.1");
  assert.equal(host("srt://127.1:9000?streamid=a@example.com"), "127.1", "an @ after the host is not userinfo");
  assert.deepEqual(splitTargetUrl("rtmps://h:8443/app/k"), { protocol: "rtmps", host: "h", port: 8443, path: "/app/k", hostStart: 8, hostEnd: 9 });
});

test("the tcUrl is the one ffmpeg 5.1 sends (port always written, its rules for the app)", () => {
  const cases: [string, string][] = [
    ["rtmp://a.rtmp.youtube.com/live2/xxxx-xxxx", "rtmp://a.rtmp.youtube.com:1935/live2"],
    ["rtmps://live-api-s.facebook.com:443/rtmp/FB-1", "rtmps://live-api-s.facebook.com:443/rtmp"],
    ["rtmps://h/app/k", "rtmps://h:443/app"],
    ["rtmp://h/app/instance/key", "rtmp://h:1935/app/instance"],
    ["rtmp://h/app/a:b/c", "rtmp://h:1935/app"],
    ["rtmp://h/app?x=1/key", "rtmp://h:1935/app?x=1"],
    ["rtmp://h/a/b?slist=foo&x=1", "rtmp://h:1935/a/b?slist=foo&x=1"],
    ["rtmp://h/ondemand/x", "rtmp://h:1935/ondemand"],
    ["rtmp://h/live", "rtmp://h:1935/live"],
    ["rtmp://h", "rtmp://h:1935/"],
    ["rtmp://u:p@[::1]:1936/live/k", "rtmp://[::1]:1936/live"],
  ];
  for (const [url, tcUrl] of cases) assert.equal(rtmpTcUrl(url), tcUrl, url);
});

test("ffmpeg's words about a push never carry the target's key or password", () => {
  const url = "rtmp://user:hunter22@a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop";
  const said = "[rtmp @ 0x55] Server error: rtmp://203.0.113.9:1935/live2/abcd-efgh-ijkl-mnop: Input/output error; stream abcd-efgh-ijkl-mnop refused";
  const safe = redactTargetSecrets(said, url);
  assert.doesNotMatch(safe, /abcd-efgh|hunter22/);
  assert.match(safe, /Server error: rtmp:\/\/203\.0\.113\.9:1935\/… Input\/output error/, "still says what went wrong, and where");
  const srt = redactTargetSecrets("Connection to srt://198.51.100.7:9000?streamid=publish:s3cr3t-key failed", "srt://ingest.example.com:9000?streamid=publish:s3cr3t-key");
  assert.doesNotMatch(srt, /s3cr3t/);
});
