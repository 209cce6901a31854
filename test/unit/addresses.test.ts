import assert from "node:assert/strict";
import net from "node:net";
import os from "node:os";
import { test } from "node:test";
import { addressRefusal, hostReason, isPrivateAddress, PrivateAddressError } from "@/lib/net/guard";
import { redactTargetSecrets, rtmpTcUrl, splitTargetUrl } from "@/lib/targets/connect";
import { PRIVATE_HOSTS } from "../support/private-hosts";

// The guard as a production deployment has it.
process.env.ALLOW_PRIVATE_URLS = "false";

test("classifies addresses, IPv4 inside IPv6 included", () => {
  for (const a of [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "0.0.0.0",
    "100.64.0.1",
    "::1",
    "::",
    "fe80::1",
    "fe80::1%lo",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::127.0.0.1",
    "::7f00:1",
    "::a00:1",
    "64:ff9b::7f00:1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::808:808",
    "2002:7f00:1::",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",
    "::ffff:0:7f00:1",
    "not-an-ip",
  ]) {
    assert.equal(isPrivateAddress(a), true, a);
  }
  // NAT64 of a public address is how IPv6-only networks reach it
  for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "64:ff9b::8.8.8.8"]) {
    assert.equal(isPrivateAddress(a), false, a);
  }
});

test("refuses every block of the IANA special-purpose registries that is not globally reachable, first address to last", () => {
  const refused = [
    // IPv4 Special-Purpose Address Registry, and multicast
    "0.0.0.0",
    "0.255.255.255",
    "10.0.0.0",
    "10.255.255.255",
    "100.64.0.0",
    "100.127.255.255",
    "127.0.0.0",
    "127.255.255.255",
    "169.254.0.0",
    "169.254.255.255",
    "172.16.0.0",
    "172.31.255.255",
    "192.0.0.0",
    "192.0.0.9",
    "192.0.0.170",
    "192.0.0.255",
    "192.0.2.0",
    "192.0.2.255",
    "192.88.99.0",
    "192.88.99.255",
    "192.168.0.0",
    "192.168.255.255",
    "198.18.0.0",
    "198.19.255.255",
    "198.51.100.0",
    "198.51.100.255",
    "203.0.113.0",
    "203.0.113.255",
    "224.0.0.0",
    "239.255.255.255",
    "240.0.0.0",
    "255.255.255.255",
    // IPv6 Special-Purpose Address Registry, and everything outside global unicast (2000::/3)
    "::",
    "::1",
    "::ffff:0:7f00:1",
    "64:ff9b:1::1",
    "100::",
    "100::ffff:ffff:ffff:ffff",
    "100:0:0:1::1",
    "2001::",
    "2001:2::1",
    "2001:10::1",
    "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff",
    "2001:db8::",
    "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
    "2002::",
    "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "3fff::",
    "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff",
    "5f00::1",
    "5f00:ffff::1",
    "fc00::",
    "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "fe80::",
    "febf:ffff::1",
    "fec0::1",
    "ff02::1",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "4000::",
    "8000::1",
    "e000::1",
    "64:ff9b:0:0:0:1:808:808",
    // embedded in the IPv6 forms that are decoded
    "::ffff:192.0.2.1",
    "::ffff:c633:6407",
    "64:ff9b::203.0.113.9",
    "64:ff9b::f000:1",
  ];
  for (const a of refused) assert.equal(addressRefusal(a), "a private address", a);
  // Just outside each block, and the registry's globally reachable entries (AS112, AMT): public.
  const allowed = [
    "1.0.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "169.255.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.0.1.255",
    "192.0.3.0",
    "192.88.98.255",
    "192.88.100.0",
    "192.167.255.255",
    "192.169.0.0",
    "198.17.255.255",
    "198.20.0.0",
    "198.51.99.255",
    "198.51.101.0",
    "203.0.112.255",
    "203.0.114.0",
    "223.255.255.255",
    "192.31.196.1",
    "192.52.193.1",
    "192.175.48.1",
    "2000::1",
    "2001:200::",
    "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff",
    "2001:db9::",
    "2003::",
    "3ffe:ffff::1",
    "3fff:1000::",
    "2620:4f:8000::1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
  ];
  for (const a of allowed) assert.equal(addressRefusal(a), undefined, a);
});

test("refuses this host's own addresses whatever their range, read again as interfaces change", async (t) => {
  // The clock starts in the past, so the real one reads the real interfaces again after this test.
  let now = Date.now() - 60_000;
  t.mock.method(Date, "now", () => now);
  const nic = (address: string): os.NetworkInterfaceInfo =>
    net.isIPv4(address)
      ? { address, family: "IPv4", netmask: "255.255.255.0", mac: "02:00:00:00:00:01", internal: false, cidr: `${address}/24` }
      : { address, family: "IPv6", netmask: "ffff:ffff:ffff:ffff::", mac: "02:00:00:00:00:01", internal: false, cidr: `${address}/64`, scopeid: 0 };
  let interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = { eth0: [nic("93.184.216.34"), nic("2606:2800:220:1:248:1893:25c8:1946")] };
  t.mock.method(os, "networkInterfaces", () => interfaces);

  const self = "an address of this machine";
  for (const a of ["93.184.216.34", "::ffff:93.184.216.34", "64:ff9b::5db8:d822", "2606:2800:0220:0001:0248:1893:25c8:1946"]) {
    assert.equal(addressRefusal(a), self, a);
  }
  assert.equal(addressRefusal("93.184.216.35"), undefined, "a neighbour on the same network is another machine");
  assert.equal(await hostReason("93.184.216.34"), "93.184.216.34 is an address of this machine");
  assert.equal(await hostReason("1572395042"), "1572395042 is an address of this machine (93.184.216.34)");
  assert.equal(new PrivateAddressError("93.184.216.34").message, "refusing to connect to 93.184.216.34, an address of this machine");

  // A new lease: within a few seconds the old address is another machine's and the new one refused.
  interfaces = { eth0: [nic("8.8.4.4")] };
  now += 5_000;
  assert.equal(addressRefusal("93.184.216.34"), undefined);
  assert.equal(addressRefusal("8.8.4.4"), self);
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
  const srt = redactTargetSecrets(
    "Connection to srt://198.51.100.7:9000?streamid=publish:s3cr3t-key failed",
    "srt://ingest.example.com:9000?streamid=publish:s3cr3t-key",
  );
  assert.doesNotMatch(srt, /s3cr3t/);
});
