// biome-ignore-all format: ffmpeg command lines, each option beside its value
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import readline from "node:readline";
import { promisify } from "node:util";
import { spawnTied } from "@/lib/tied-process";
import type { Api } from "./client";

const exec = promisify(execFile);

export const RTMP_PORT = Number(process.env.CASTLINE_RTMP_PORT);
export const rtmpUrl = (key: string, port = RTMP_PORT) => `rtmp://127.0.0.1:${port}/live/${key}`;

export interface Running {
  proc: ChildProcess;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stderr(): string;
  /** A clean stop (SIGINT), as a broadcaster pressing "stop". */
  stop(): Promise<number | null>;
}

function run(args: string[], onProgress?: (fields: Record<string, string>) => void): Running {
  const proc = spawn("ffmpeg", args, { stdio: ["ignore", onProgress ? "pipe" : "ignore", "pipe"] });
  let stderr = "";
  proc.stderr!.on("data", (c) => (stderr += c));
  if (onProgress) {
    let block: Record<string, string> = {};
    readline.createInterface({ input: proc.stdout! }).on("line", (line) => {
      const [key, value] = [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)];
      block[key] = value;
      if (key === "progress") {
        onProgress(block);
        block = {};
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {
    proc,
    exited,
    stderr: () => stderr,
    stop: async () => {
      if (proc.exitCode === null) proc.kill("SIGINT");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * A test pattern with a tone, broadcast like OBS would (H.264 + AAC over RTMP, 2 s GOP unless
 * `keyframeIntervalS` says otherwise), at `fps` frames per second, for `seconds` of media
 * (until stopped when unset). `speed` below 1 sends the media slower than real time, as an
 * overloaded encoder or a congested uplink does: its timeline falls behind the wall clock.
 */
export function publish(url: string, opts: { size?: string; fps?: number; seconds?: number; keyframeIntervalS?: number; speed?: number } = {}): Running {
  const fps = opts.fps ?? 30;
  return run([
    "-hide_banner", "-loglevel", "error", "-readrate", String(opts.speed ?? 1),
    "-f", "lavfi", "-i", `testsrc2=size=${opts.size ?? "640x360"}:rate=${fps}`,
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
    ...(opts.seconds ? ["-t", String(opts.seconds)] : []),
    "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", String(Math.round(fps * (opts.keyframeIntervalS ?? 2))),
    "-c:a", "aac", "-b:a", "64k", "-f", "flv", url,
  ]);
}

/**
 * An encoder that costs nearly nothing, so that a busy machine slows what it feeds and not
 * the encoder itself (a real one runs elsewhere): `file` (FLV, H.264 + AAC) looped and sent
 * as it is, at its own pace, for `seconds`. `sentS()` is the media it has sent so far.
 */
export function publishFile(url: string, file: string, seconds: number): Running & { sentS(): number } {
  let sentS = 0;
  const running = run(
    ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-stats_period", "0.5", "-stream_loop", "-1", "-re", "-i", file, "-t", String(seconds), "-c", "copy", "-f", "flv", url],
    (p) => {
      const out = Number(p.out_time_us) / 1e6;
      if (Number.isFinite(out) && out > sentS) sentS = out;
    },
  );
  return { ...running, sentS: () => sentS };
}

/** What publish() sends, as a file: `seconds` of a test pattern with a tone, `size`, 30 fps, 2 s GOP. */
export async function makeBroadcastClip(file: string, opts: { size?: string; seconds?: number } = {}) {
  await exec("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=${opts.size ?? "640x360"}:rate=30`,
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
    "-t", String(opts.seconds ?? 10),
    "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", "60",
    "-c:a", "aac", "-b:a", "64k", "-f", "flv", file,
  ]);
  if (!fs.existsSync(file)) throw new Error(`ffmpeg made no ${file}`);
}

/**
 * A busy machine: busy loops at normal priority, which die with this process; add() starts
 * more, stop() ends them all.
 */
export function cpuHog(): { add(processes: number): void; readonly count: number; stop(): Promise<void> } {
  const hogs: ChildProcess[] = [];
  return {
    add: (processes) => {
      for (let i = 0; i < processes; i++) {
        const hog = spawnTied(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
        // Normal priority, whatever the test's own.
        if (hog.pid) os.setPriority(hog.pid, 0);
        hogs.push(hog);
      }
    },
    get count() {
      return hogs.length;
    },
    stop: async () => {
      await Promise.all(
        hogs.map((hog) => (hog.exitCode !== null || hog.signalCode !== null ? undefined : new Promise((resolve) => hog.once("exit", resolve).kill("SIGKILL")))),
      );
    },
  };
}

/** A second RTMP server standing in for YouTube/Twitch: ffmpeg listening, writing what it receives. */
export function rtmpReceiver(port: number, out: string): Running {
  return run(["-hide_banner", "-loglevel", "error", "-y", "-listen", "1", "-i", `rtmp://127.0.0.1:${port}/live/target`, "-c", "copy", "-f", "flv", out]);
}

export async function ffprobe(file: string) {
  const { stdout } = await exec("ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", file]);
  return JSON.parse(stdout) as {
    streams: {
      codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate?: string;
      pix_fmt?: string; color_transfer?: string; color_primaries?: string;
    }[];
    format: { duration?: string };
  };
}

/** Decodes every frame of a file; rejects if any is broken. */
export async function decodes(file: string) {
  await exec("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"]);
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 20_000, every = 250): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

export const streamActive = (api: Api, id: string) =>
  until(`stream ${id} active`, async () => (await api.get(`stream/${id}`)).body.isActive === true, 30_000);
export const streamIdle = (api: Api, id: string) =>
  until(`stream ${id} idle`, async () => (await api.get(`stream/${id}`)).body.isActive === false, 15_000);

/**
 * A congested uplink between a broadcaster and the RTMP server: the first 64 KiB
 * (handshake, publish commands) pass straight, then what the broadcaster sends
 * arrives in bursts every `everyMs`.
 */
export async function burstyLink(rtmpPort: number, everyMs: number): Promise<{ port: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(rtmpPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    let passed = 0;
    let held: Buffer[] = [];
    const timer = setInterval(() => {
      if (held.length) upstream.write(Buffer.concat(held));
      held = [];
    }, everyMs);
    client.on("data", (chunk) => {
      if (passed < 65_536) {
        passed += chunk.length;
        upstream.write(chunk);
      } else held.push(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      clearInterval(timer);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      server.close();
      sockets.forEach((s) => s.destroy());
    },
  };
}

/**
 * A whole broadcast of `seconds` of media, sent in real time until ffmpeg stops by itself;
 * resolves (with when the encoder stopped) once its session ended. A short one on a busy
 * machine may end before the stream was ever seen active: this does not wait for that.
 */
export async function broadcastFor(api: Api, stream: { id: string; streamKey: string }, seconds: number): Promise<number> {
  const startedAt = Date.now();
  const encoder = publish(rtmpUrl(stream.streamKey), { seconds });
  const code = await encoder.exited;
  if (code !== 0) throw new Error(`the encoder failed (${code}): ${encoder.stderr()}`);
  const stoppedAt = Date.now();
  await until(
    "the broadcast's end",
    async () => {
      const [latest] = (await api.get(`stream/${stream.id}/sessions`)).body;
      return latest && !latest.isActive && latest.endedAt >= startedAt;
    },
    30_000,
  );
  return stoppedAt;
}
