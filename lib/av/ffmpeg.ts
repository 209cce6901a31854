import type { ChildProcess, SpawnOptions } from "node:child_process";
import readline from "node:readline";
import { config } from "@/lib/config";
import { cancellation } from "@/lib/cancellation";
import { READABLE_DEMUXERS } from "@/lib/av/containers";
import { BACKGROUND_NICENESS, DEFERRED_NICENESS } from "@/lib/av/machine";
import { spawnTied } from "@/lib/tied-process";

/**
 * ffmpeg processes that never outlive us (even a kill -9 of this process takes them
 * down: lib/tied-process.ts), and stop() escalates TERM, TERM, KILL (an ffmpeg blocked
 * in I/O ignores the first TERM). Live work (the transcoder, recorder and pushes of a
 * broadcast) runs at normal priority; `background` work (clips, making uploads and
 * recordings playable) at a lower one, so that on a machine that runs both the kernel gives
 * the CPU to live work first; `deferred` work (VOD renditions, seek previews) at the lowest.
 */

export interface FfmpegProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** The last lines ffmpeg wrote to stderr, for error messages. */
  stderrTail(): string;
  stop(): Promise<void>;
}

export function runFfmpeg(
  args: string[],
  opts: { onProgress?: (fields: Record<string, string>) => void; bin?: string; env?: NodeJS.ProcessEnv; background?: boolean; deferred?: boolean } = {},
): FfmpegProcess {
  const bin = opts.bin ?? config().FFMPEG_PATH;
  const spawnOpts: SpawnOptions = { stdio: ["ignore", "pipe", "pipe"], env: opts.env ?? process.env };
  const child = spawnTied(bin, args, spawnOpts, "SIGKILL", opts.deferred ? DEFERRED_NICENESS : opts.background ? BACKGROUND_NICENESS : 0);
  const tail: string[] = [];
  readline.createInterface({ input: child.stderr! }).on("line", (line) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
  });
  // `-progress pipe:1` writes key=value blocks ending with progress=continue|end
  let block: Record<string, string> = {};
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    const eq = line.indexOf("=");
    if (eq < 0) return;
    block[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    if (line.startsWith("progress=")) {
      opts.onProgress?.(block);
      block = {};
    }
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(-1));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    for (const signal of ["SIGTERM", "SIGTERM", "SIGKILL"] as const) {
      child.kill(signal);
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 1500))]);
      if (done) return;
    }
  };
  return { child, exited, stderrTail: () => tail.join("\n"), stop };
}

/**
 * One ffmpeg run of background work to completion (quiet, overwriting, at background
 * priority, or the lowest when `deferred`); throws with its last stderr lines if it fails, or the reason its work was
 * called off (lib/cancellation.ts), having stopped it.
 */
export async function ffmpeg(args: string[], opts: { onProgress?: (fields: Record<string, string>) => void; deferred?: boolean } = {}): Promise<void> {
  const signal = cancellation();
  signal?.throwIfAborted();
  const progress = opts.onProgress ? ["-progress", "pipe:1", "-nostats"] : [];
  const proc = runFfmpeg(["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...progress, ...args], {
    background: true,
    deferred: opts.deferred,
    onProgress: opts.onProgress,
  });
  const stop = () => void proc.stop();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const code = await proc.exited;
    signal?.throwIfAborted();
    if (code !== 0) throw new Error(`ffmpeg failed (${code}): ${proc.stderrTail()}`);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/**
 * How ffmpeg and ffprobe open media a user gave us (uploads, imports): that one input
 * and nothing it names. Only the input's own protocol (a file, or the store's pre-signed
 * http(s) URL), and only the demuxers given (by default every one of lib/av/containers.ts;
 * once a file was probed, the one it was found to be), which libavformat checks after detecting
 * the format and before the demuxer reads anything: a playlist never opens its entries,
 * so it can neither reach this machine's files or network nor tell which exist. The mov
 * demuxer follows external data references only with `enable_drefs`, off by default.
 */
export function userMediaInput(input: string, formats = READABLE_DEMUXERS): string[] {
  const protocols = input.startsWith("https://") ? "https,tls,tcp" : input.startsWith("http://") ? "http,tcp" : "file";
  return ["-protocol_whitelist", protocols, "-format_whitelist", formats, "-i", input];
}
