import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { newAccount } from "./client";
import { startCluster } from "./cluster";
import { until } from "./media";
import { descendants } from "./processes";
import { launchWebrtcBrowser, publishFromPage, watchOverWhep } from "./webrtc-browser";

/**
 * WebRTC on many machines, run by test/webrtc-cluster.test.ts inside a network namespace of its
 * own (loopback alone): two app instances and two media nodes as separate processes (PostgreSQL
 * embedded in this namespace, an S3 bucket, no directory shared), a browser publishing over WHIP
 * through instance 1 and a viewer over WHEP through instance 2; then kill -9 of the node holding
 * the broadcast, and the publisher publishing again (an encoder's reconnect). Prints what it saw as JSON.
 */
const NODE_LOST_AFTER_S = 10;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-webrtc-cluster-"));
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL; // the embedded one, in this namespace: the cluster's scratch database is made there
  const stopDatabase = await setupDatabase();
  const cluster = await startCluster({
    apps: 2,
    nodes: 2,
    env: { WEBRTC_HOST: "127.0.0.1", STUN_PORT: "0", NODE_LOST_AFTER_S: String(NODE_LOST_AFTER_S), RECORDING_RECONNECT_WINDOW_S: "60" },
  });
  const browser = await launchWebrtcBrowser();
  const seen: Record<string, unknown> = {};
  try {
    const [a1, a2] = cluster.apps;
    const api = await newAccount(a1.url);
    const stream = (await api.post("stream", { name: "whip on a cluster", record: true })).body;
    const isLive = async () => (await api.get(`stream/${stream.id}`)).body.isActive === true;

    // WHIP through instance 1: it lands on a node (the one whose receiving ffmpeg runs below it).
    const page = await browser.newPage();
    await page.goto(`${a1.url}/api/health`);
    seen.publish = await publishFromPage(page, stream.streamKey);
    await until("the stream live", isLive, 30_000);
    const comm = (pid: number) => fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    const holding = () => cluster.nodes.find((n) => n.child.exitCode === null && descendants(n.child.pid!).some((p) => comm(p) === "ffmpeg"));
    const first = holding()!;
    seen.landedOn = cluster.nodes.indexOf(first);

    // WHEP through instance 2: handed to the node holding the broadcast.
    seen.whepViaOther = await watchOverWhep(browser, a2.url, stream.playbackId);

    // kill -9 of that node mid-WHIP: the session ends within the lost-node time.
    const killedAt = Date.now();
    await first.crash();
    await until("the stream idle", async () => !(await isLive()), (NODE_LOST_AFTER_S + 20) * 1000, 250);
    seen.endedAfterMs = Date.now() - killedAt;

    // The publisher publishes again, as an encoder reconnects: refused while the lost node's
    // session holds the stream, then on the other node, the same session going on.
    const again = await until(
      "a publish accepted again",
      async () => {
        const attempt = await publishFromPage(page, stream.streamKey);
        return attempt.status === 201 ? attempt : undefined;
      },
      60_000,
      1000,
    );
    await until("the stream live again", isLive, 30_000);
    seen.againOn = cluster.nodes.indexOf(holding()!);
    seen.sessions = (await api.get(`stream/${stream.id}/sessions`)).body.length;
    seen.deleteStatus = (await fetch(new URL(again.location!, a1.url), { method: "DELETE" })).status;
    await until("the stream idle at the end", async () => !(await isLive()), 30_000);
    seen.ended = true;
  } catch (err) {
    seen.error = err instanceof Error ? err.message : String(err);
  } finally {
    await browser.close();
    await cluster.stop().catch(() => undefined);
    await closeDb();
    await stopDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`RESULT ${JSON.stringify(seen)}`);
}

void main();
