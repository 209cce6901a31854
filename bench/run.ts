import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { createApiKey } from "@/lib/api-keys/service";
import { createStream } from "@/lib/streams/service";
import { createUser } from "@/lib/users/service";
import { startAppProcess } from "../scripts/app-process";
import { buildIfNeeded } from "../scripts/build-if-needed";
import { benchAccess } from "./access";
import { benchAnalytics, COUNTRY_HEADER } from "./analytics";
import { benchApi } from "./api";
import { benchClips } from "./clips";
import { benchDelivery } from "./delivery";
import { benchIpfs } from "./ipfs";
import { benchJobs } from "./jobs";
import { benchLadder } from "./ladder";
import { benchLists } from "./lists";
import { benchCapacity, benchLive } from "./live";
import { benchOrigin } from "./origin";
import { startS3App, type S3App } from "./s3-app";
import { benchUpload } from "./upload";
import { benchVod } from "./vod";
import { benchWebhooks } from "./webhooks";
import { benchRealtime } from "./realtime";

/** `npm run bench`: the production build on a real PostgreSQL, figures printed per section. */
async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-"));
  process.env.DATA_DIR = dataDir;
  process.env.ALLOW_PRIVATE_URLS = "true"; // every receiver here is on loopback
  const stopDatabase = await setupDatabase();
  await buildIfNeeded();
  // Limits counted (their cost is part of the figures) but never reached by the load.
  const limits = {
    RATE_LIMIT_API_PER_MIN: "1000000000",
    RATE_LIMIT_IP_PER_MIN: "1000000000",
    RATE_LIMIT_PLAYBACK_PER_MIN: "1000000000",
    RATE_LIMIT_BEACONS_PER_MIN: "1000000000",
  };
  // Viewers' countries as a CDN in front would say them (the analytics section's beacons carry it).
  const env = { ...process.env, PORT: "0", HOST: "127.0.0.1", MEDIA_NODE: "false", COUNTRY_HEADER, ...limits };
  const app = await startAppProcess(env);
  let s3App: S3App | undefined;
  try {
    const user = await createUser({ email: `bench-${Date.now()}@example.com` });
    const { key } = await createApiKey(user.id, { name: "bench" });
    const stream = await createStream(user.id, { name: "bench" });
    console.log(`Castline benchmarks — ${os.cpus().length} cores, node ${process.version}`);
    const only = process.argv.slice(2);
    const wanted = (section: string) => !only.length || only.includes(section);
    if (wanted("api")) await benchApi({ appUrl: app.url, key, streamId: stream.id, env });
    if (wanted("lists")) await benchLists({ appUrl: app.url, env });
    if (wanted("jobs")) await benchJobs();
    if (wanted("webhooks")) await benchWebhooks({ userId: user.id });
    if (wanted("vod")) await benchVod({ appUrl: app.url, key, appPid: app.child.pid!, dataDir });
    if (wanted("ladder")) await benchLadder({ appUrl: app.url, key, dataDir, env: { ...env, DATABASE_URL: process.env.DATABASE_URL } });
    if (wanted("origin") || wanted("upload")) s3App = await startS3App(env);
    if (wanted("origin")) await benchOrigin({ appUrl: app.url, key, s3App: s3App! });
    if (wanted("upload")) await benchUpload({ appUrl: app.url, key, dataDir, s3App: s3App! });
    if (wanted("ipfs")) await benchIpfs();
    if (wanted("access")) await benchAccess({ appUrl: app.url, key });
    const liveEnv = { env: { ...env, DATABASE_URL: process.env.DATABASE_URL, MEDIA_NODE: "true" }, key };
    if (wanted("live")) await benchLive(liveEnv);
    else if (wanted("capacity")) await benchCapacity(liveEnv);
    if (wanted("clips")) await benchClips(liveEnv);
    if (wanted("delivery")) await benchDelivery(liveEnv);
    if (wanted("realtime")) await benchRealtime();
    if (wanted("analytics")) await benchAnalytics({ appUrl: app.url, appPid: app.child.pid!, env });
  } finally {
    await s3App?.stop();
    await app.stop();
    await closeDb();
    await stopDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
