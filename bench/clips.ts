// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawn } from "node:child_process";
import { startAppProcess } from "../scripts/app-process";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";
import { withKey } from "./api-call";
import { freePort } from "@/lib/net/free-port";

/**
 * "Clip the last 30 s" of a live stream: POST /api/clip (startTime now - 30 s, no
 * endTime: up to now) until the clip asset is ready (smart cut of the DVR, stored,
 * remuxed to HLS), on a 720p30 broadcast with the default 2 s segments.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchClips(ctx: { env: NodeJS.ProcessEnv; key: string }) {
  const rtmpPort = await freePort();
  // The bench's other app runs jobs on the same database: it must see the same local store (its DATA_DIR).
  const app = await startAppProcess({ ...ctx.env, PORT: "0", HOST: "127.0.0.1", RTMP_PORT: String(rtmpPort), RTMP_HOST: "127.0.0.1" });
  const stream = await call(operations.createStream, { body: { name: "bench clips" } }, withKey(app.url, ctx.key));
  const pub = spawn("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-re",
    "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=frequency=440",
    "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", "60", "-b:v", "3000k",
    "-c:a", "aac", "-f", "flv", `rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`,
  ], { stdio: "ignore" });
  try {
    const deadline = Date.now() + 60_000;
    while (!(await call(operations.getStream, { params: { id: stream.id } }, withKey(app.url, ctx.key))).isActive && Date.now() < deadline) await sleep(250);
    await sleep(36_000); // more than 30 s of DVR
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const { asset } = await call(operations.createClip, { body: { playbackId: stream.playbackId!, startTime: t0 - 30_000 } }, withKey(app.url, ctx.key));
      let status: { phase: string; errorMessage?: string } = { phase: "" };
      while (!["ready", "failed"].includes(status.phase) && Date.now() - t0 < 60_000) {
        await sleep(50);
        status = (await call(operations.getAsset, { params: { id: asset.id } }, withKey(app.url, ctx.key))).status;
      }
      if (status.phase !== "ready") throw new Error(`clip ${asset.id}: ${status.phase} ${status.errorMessage ?? ""}`);
      runs.push(Date.now() - t0);
      await sleep(3000);
    }
    console.log(`\nClips\nclip of 30 s from a live stream (720p30, 2 s segments): request to ready ${runs.map((ms) => (ms / 1000).toFixed(2)).join(" s, ")} s (target <= 5 s)`);
  } finally {
    pub.kill("SIGINT");
    await sleep(1000);
    await app.stop();
  }
}
