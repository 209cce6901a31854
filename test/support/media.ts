import { execFile, spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
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

function run(args: string[]): Running {
  const proc = spawn("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  proc.stderr!.on("data", (c) => (stderr += c));
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

/** A second RTMP server standing in for YouTube/Twitch: ffmpeg listening, writing what it receives. */
export function rtmpReceiver(port: number, out: string): Running {
  return run(["-hide_banner", "-loglevel", "error", "-y", "-listen", "1", "-i", `rtmp://127.0.0.1:${port}/live/target`, "-c", "copy", "-f", "flv", out]);
}

export async function ffprobe(file: string) {
  const { stdout } = await exec("ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", file]);
  return JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]; format: { duration?: string } };
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
