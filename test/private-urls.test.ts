import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { guardedRequest, isPrivateAddress, PrivateAddressError, privateHostReason } from "@/lib/net/guard";
import { startAppProcess, type AppProcess } from "../scripts/app-process";
import { call, signInAt } from "./support/client";
import { createScratchDatabase } from "./support/database";
import { startReceiver } from "./support/receiver";

// This process checks the guard as a production deployment has it.
process.env.ALLOW_PRIVATE_URLS = "false";

describe("private address guard", () => {
  test("classifies addresses", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "not-an-ip"]) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) assert.equal(isPrivateAddress(a), false, a);
  });

  test("refuses loopback by literal address and by a name that resolves to it (checked at connect)", async () => {
    const receiver = await startReceiver();
    try {
      await assert.rejects(guardedRequest(receiver.url, { method: "POST", body: "{}", timeoutMs: 2000 }), PrivateAddressError);
      await assert.rejects(guardedRequest(`http://localhost:${receiver.port}/x`, { timeoutMs: 2000 }), PrivateAddressError);
      assert.equal(receiver.received.length, 0, "no request reached the receiver");
      assert.match((await privateHostReason("http://localhost:8080/x"))!, /this machine/);
      assert.match((await privateHostReason("http://10.0.0.8/x"))!, /private address/);
      assert.match((await privateHostReason("http://[::1]:80/x"))!, /private address/);
      assert.equal(await privateHostReason("https://93.184.216.34/x"), undefined);
    } finally {
      await receiver.close();
    }
  });
});

describe("an app that does not allow private URLs", () => {
  let app: AppProcess;
  let dataDir: string;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-guard-"));
    app = await startAppProcess({ ...process.env, DATABASE_URL: await createScratchDatabase(), DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", MEDIA_NODE: "false", ALLOW_PRIVATE_URLS: "false" });
  });
  after(async () => {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("refuses webhooks to private addresses with a clear 400", async () => {
    const email = `guard-${Date.now()}@example.com`;
    await call("POST", `${app.url}/api/user`, { body: { email, password: "long enough!" } });
    const cookie = await signInAt(app.url, email, "long enough!");
    for (const url of ["http://127.0.0.1:9/x", "http://localhost/x", "http://192.168.0.10/x", "http://[::1]/x"]) {
      const res = await call("POST", `${app.url}/api/webhook`, { cookie, body: { name: "x", url, events: ["stream.idle"] } });
      assert.equal(res.status, 400, url);
      assert.match(res.body.errors[0], /public address/);
    }
    const ok = await call("POST", `${app.url}/api/webhook`, { cookie, body: { name: "x", url: "https://93.184.216.34/x", events: ["stream.idle"] } });
    assert.equal(ok.status, 200);
  });
});
