import type { Feed, FeedInput } from "./feed";
import { runFfmpeg, type FfmpegProcess } from "@/lib/av/ffmpeg";

/** A process that has written nothing this long after it started is counted as not moving (its lag grows). */
const STARTUP_MS = 10_000;
/** A draining process that makes no progress this long is stopped: it is stuck, not working through its input. */
const DRAIN_STALL_MS = 10_000;
/** How often a draining process is looked at. */
const DRAIN_CHECK_MS = 500;

/**
 * An ffmpeg that reads a broadcast (the ladder's, the recorder), and how far its output
 * trails what the encoder sent, from ffmpeg's progress reports (`-progress pipe:1`).
 */
export class FeedProcess {
  private readonly proc: FfmpegProcess;
  private readonly input: FeedInput;
  private readonly startedAt = Date.now();
  /** Media seconds written (ffmpeg's out_time), and when that last grew. */
  private outS?: number;
  private progressAt = Date.now();

  constructor(
    private readonly feed: Feed,
    fromStart: boolean,
    args: (input: string) => string[],
  ) {
    this.input = feed.open(fromStart);
    this.proc = runFfmpeg(args(this.input.url), {
      onProgress: (p) => {
        const outS = Number(p.out_time_us) / 1e6;
        if (!Number.isFinite(outS) || outS <= 0 || (this.outS !== undefined && outS <= this.outS)) return;
        this.outS = outS;
        this.progressAt = Date.now();
      },
    });
  }

  get exited() {
    return this.proc.exited;
  }

  stderrTail() {
    return this.proc.stderrTail();
  }

  /** Seconds of media between what the encoder sent and what this process wrote; undefined while it starts. */
  lagS(now: number): number | undefined {
    const newest = this.feed.mediaMs;
    const start = this.input.startMs;
    if (newest === undefined || start === undefined) return undefined;
    if (this.outS === undefined && now - this.startedAt < STARTUP_MS) return undefined;
    return Math.max(0, (newest - start) / 1000 - (this.outS ?? 0));
  }

  /** Waits until it ended by itself (its input ended), stopping it if it makes no progress. */
  async drain() {
    for (;;) {
      const done = await Promise.race([this.proc.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), DRAIN_CHECK_MS))]);
      if (done) return;
      if (Date.now() - this.progressAt > DRAIN_STALL_MS) return this.proc.stop();
    }
  }

  stop() {
    return this.proc.stop();
  }
}
