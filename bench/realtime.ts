// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PeerConnection, Audio, Video } from "node-datachannel";
import { freePort } from "@/lib/net/free-port";
import { RENDITION_FORMATS, renditionArgs } from "@/media-node/webrtc-rendition";
import { startAppProcess } from "../scripts/app-process";
import { ensurePrograms, FFMPEG, IPROUTE } from "../scripts/prerequisites";
import { glassToGlass } from "./glass-to-glass";
import { procStat } from "./process-cpu";

/**
 * `npm run bench realtime`: WHEP viewers of an RTMP publish (720p30 with B-frames, as OBS sends
 * it), on one media node: the rendition made for them beside a bare ffmpeg making the same from
 * the same file, and the node's CPU per viewer forwarding it. In a network namespace of its own
 * (`unshare --net`, loopback up), as the WebRTC test: ICE has loopback alone, and nothing leaves it.
 * The viewers are node-datachannel peers in this process (their CPU is not the node's). Then
 * glass to glass by the capture clock, and the browser publisher's bitrate (bench/glass-to-glass.ts).
 */
export async function benchRealtime() {
  ensurePrograms([FFMPEG, IPROUTE]);
  const child = spawn("unshare", ["--net", "--", "sh", "-c", `ip link set lo up && exec "${process.execPath}" --import tsx bench/realtime.ts --in-namespace`], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: "" },
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`bench realtime failed (${code}): it needs unshare --net (root, or CAP_SYS_ADMIN)`);
}

const WINDOW_S = 15;
const VIEWER_COUNTS = [1, 25, 100];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds of one process (its own; children apart). */
const cpuOf = (pid: number) => {
  const s = procStat(pid);
  return s ? s.ticks / 100 : 0;
};
const childrenOf = (pid: number) =>
  fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number).filter((p) => procStat(p)?.ppid === pid);
const cmdline = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
};

/** Cores a process used over `seconds` from now. */
async function coresOver(pids: () => number[], seconds: number): Promise<number> {
  const before = new Map(pids().map((p) => [p, cpuOf(p)]));
  await sleep(seconds * 1000);
  let used = 0;
  for (const p of pids()) used += cpuOf(p) - (before.get(p) ?? 0);
  return used / seconds;
}

/** A WHEP viewer: a receive-only peer offering what browsers offer for the rendition; counts what it receives. */
async function viewer(origin: string, playbackId: string) {
  const pc = new PeerConnection("viewer", { iceServers: [] });
  const video = new Video("0", "RecvOnly");
  video.addH264Codec(RENDITION_FORMATS.video!.payloadType, RENDITION_FORMATS.video!.fmtp);
  const audio = new Audio("1", "RecvOnly");
  audio.addOpusCodec(RENDITION_FORMATS.audio!.payloadType, RENDITION_FORMATS.audio!.fmtp);
  let bytes = 0;
  // Held here: a track nothing references is collected, and its messages stop.
  const tracks = [video, audio].map((description) => pc.addTrack(description));
  for (const track of tracks) track.onMessage((m) => (bytes += m.length));
  pc.setLocalDescription();
  await new Promise<void>((resolve) => {
    if (pc.gatheringState() === "complete") return resolve();
    pc.onGatheringStateChange((s) => s === "complete" && resolve());
  });
  const res = await fetch(`${origin}/webrtc/${playbackId}`, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription()!.sdp });
  if (res.status !== 201) throw new Error(`WHEP answered ${res.status}: ${await res.text()}`);
  pc.setRemoteDescription(await res.text(), "answer");
  return { received: () => bytes, close: () => (tracks.forEach((t) => t.close()), pc.close()) };
}

async function inNamespace() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-bench-realtime-"));
  const clip = path.join(dataDir, "clip.flv");
  // 20 s of 720p30 with B-frames and AAC, encoded once: the publisher then only copies it.
  spawnSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=frequency=440",
    "-t", "20", "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "60", "-b:v", "3000k", "-pix_fmt", "yuv420p", "-c:a", "aac", clip,
  ]);
  const rtmpPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", RTMP_HOST: "127.0.0.1", RTMP_PORT: String(rtmpPort), MEDIA_NODE: "true", WEBRTC_HOST: "127.0.0.1", STUN_PORT: "0" };
  delete env.DATABASE_URL; // the embedded one, in this namespace
  const app = await startAppProcess(env);
  const viewers: Awaited<ReturnType<typeof viewer>>[] = [];
  let publisher: ReturnType<typeof spawn> | undefined;
  let bare: ReturnType<typeof spawn> | undefined;
  try {
    // The suite's client, whose default app is the one it is told of (CASTLINE_URL): this one.
    process.env.CASTLINE_URL = app.url;
    const { newAccount } = await import("../test/support/client");
    const api = await newAccount(app.url);
    // No renditions: the node's CPU is the source's copy, the WebRTC rendition and forwarding.
    const stream = (await api.post("stream", { name: "bench webrtc" })).body;
    publisher = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", clip, "-c", "copy", "-f", "flv", `rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`], { stdio: "ignore" });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const info = await fetch(`${app.url}/api/playback/${stream.playbackId}`).then((r) => r.json());
      if (info.meta?.source?.some((s: { hrn: string }) => s.hrn === "WebRTC (H264)")) break;
      await sleep(250);
    }
    const nodePid = childrenOf(app.child.pid!).find((p) => cmdline(p).some((a) => a.endsWith("media.ts")));
    if (!nodePid) throw new Error("no media node below the app");
    const ffmpegs = () => childrenOf(nodePid).filter((p) => procStat(p)?.comm === "ffmpeg");
    const renditionPid = () => ffmpegs().find((p) => cmdline(p).some((a) => a.startsWith("rtp://")));
    await sleep(5000);
    const idle = await coresOver(() => [nodePid], WINDOW_S);

    console.log(`\nWebRTC (WHEP) viewers of an RTMP publish (720p30 with B-frames, AAC), one media node, ${WINDOW_S} s windows`);
    const rows: string[] = [];
    for (const count of VIEWER_COUNTS) {
      while (viewers.length < count) viewers.push(await viewer(app.url, stream.playbackId));
      await sleep(3000);
      const received = viewers.reduce((n, v) => n + v.received(), 0);
      const [node, rendition] = await Promise.all([coresOver(() => [nodePid], WINDOW_S), coresOver(() => [renditionPid() ?? -1], WINDOW_S)]);
      const mbps = ((viewers.reduce((n, v) => n + v.received(), 0) - received) * 8) / WINDOW_S / 1e6;
      rows.push(
        `${String(count).padStart(4)} viewers: media node ${node.toFixed(3)} cores (${(((node - idle) / count) * 100).toFixed(2)}% of a core per viewer over the ${idle.toFixed(3)} it uses without them), ` +
          `rendition ffmpeg ${rendition.toFixed(2)} cores, ${mbps.toFixed(1)} Mb/s delivered`,
      );
      if (count === VIEWER_COUNTS[0]) {
        // The floor: a bare ffmpeg making the same rendition from the same file at the same pace.
        const sink = await freePort();
        bare = spawn("ffmpeg", ["-re", "-stream_loop", "-1", ...renditionArgs(clip, { video: sink, audio: sink + 2 }).filter((a) => a !== "-fflags" && a !== "nobuffer")], { stdio: "ignore" });
        await sleep(3000);
        const bareCores = await coresOver(() => [bare!.pid!], WINDOW_S);
        bare.kill("SIGKILL");
        rows.push(`      bare ffmpeg, same rendition from the same file: ${bareCores.toFixed(2)} cores (the rendition costs ${(rendition / bareCores).toFixed(2)}x it)`);
      }
    }
    for (const row of rows) console.log(row);
    for (const v of viewers.splice(0)) v.close();
    publisher?.kill("SIGKILL");
    await glassToGlass(app.url, api, rtmpPort);
  } finally {
    for (const v of viewers) v.close();
    bare?.kill("SIGKILL");
    publisher?.kill("SIGKILL");
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes("--in-namespace")) {
  inNamespace().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
