import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parseMediaPlaylist, type Segment } from "@/lib/av/hls";
import type { MediaStore } from "./media-store";

export interface ShippedSegment extends Segment {
  seq: number;
  size: number;
  /** The scratch file (gone already when the shipper removes what it shipped). */
  file: string;
}

export interface ShipperOptions {
  store: MediaStore;
  /** The playlist ffmpeg writes in the folder. */
  playlist: string;
  /** The object key of a file of the folder. */
  keyOf(name: string): string;
  /** Also store the playlist (under keyOf(playlist)) after the segments it names. */
  shipPlaylist: boolean;
  /** Remove each segment from scratch once stored (recordings: nothing reads them here again). */
  removeShipped: boolean;
  /** After a segment is stored, before the playlist naming it is. */
  onSegment?(segment: ShippedSegment): Promise<void> | void;
  /** After the playlist is stored. */
  onPlaylist?(): void;
  /** How long the store took for one segment, in seconds. */
  onWrite?(seconds: number): void;
}

const SEGMENT_SEQ = /_(\d+)\.ts$/;
const POLL_MS = 500;

/**
 * Ships what an ffmpeg HLS muxer writes in a scratch folder into the object
 * store as it is written: each new segment first, then the playlist naming it,
 * so a reader of the store never sees a playlist that names a missing segment.
 * A change in the folder starts a pass at once (inotify), a poll catches anything missed.
 */
export class HlsShipper {
  private readonly shipped = new Set<string>();
  private playlistShipped = "";
  private pass?: Promise<void>;
  private again = false;
  private watcher?: fs.FSWatcher;
  private timer?: NodeJS.Timeout;
  private failure?: unknown;
  segments = 0;

  constructor(
    readonly dir: string,
    private readonly opts: ShipperOptions,
  ) {}

  start() {
    this.watcher = fs.watch(this.dir, () => this.kick());
    this.watcher.on("error", () => undefined);
    this.timer = setInterval(() => this.kick(), POLL_MS);
  }

  /** Whether a playlist naming at least one segment is in the store. */
  get live() {
    return this.segments > 0 && this.playlistShipped !== "";
  }

  private kick() {
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.ship()
      .catch((err) => {
        this.failure = err;
      })
      .finally(() => {
        this.pass = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async ship() {
    const text = await fs.promises.readFile(path.join(this.dir, this.opts.playlist), "utf8").catch(() => "");
    const stored: { segment: ShippedSegment; reported: Promise<unknown> }[] = [];
    for (const segment of parseMediaPlaylist(text)) {
      if (this.shipped.has(segment.uri)) continue;
      const file = path.join(this.dir, segment.uri);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      // Already rotated out of a live window before it could be stored: nothing to do for it now.
      if (!stat) {
        this.shipped.add(segment.uri);
        continue;
      }
      const started = performance.now();
      await this.opts.store.write(this.opts.keyOf(segment.uri), fs.createReadStream(file));
      this.opts.onWrite?.((performance.now() - started) / 1000);
      const shipped = { ...segment, seq: Number(SEGMENT_SEQ.exec(segment.uri)?.[1] ?? this.segments + stored.length), size: stat.size, file };
      // Reports go out side by side, not one after another: when the app answers slowly (a
      // saturated machine), a backlog costs one round trip, and the shipper keeps up with the
      // muxer instead of falling behind until segments leave its window unshipped.
      stored.push({ segment: shipped, reported: Promise.resolve().then(() => this.opts.onSegment?.(shipped)) });
    }
    // Shipped once reported too: a report that failed is made again (with the write) next pass;
    // the app takes reports in any order (keyed by the segment's number).
    const reports = await Promise.allSettled(stored.map((s) => s.reported));
    let failure: PromiseRejectedResult | undefined;
    for (const [i, { segment }] of stored.entries()) {
      const report = reports[i];
      if (report.status === "rejected") {
        failure ??= report;
        continue;
      }
      this.shipped.add(segment.uri);
      this.segments++;
      if (this.opts.removeShipped) await fs.promises.rm(segment.file, { force: true });
    }
    if (failure) throw failure.reason;
    if (this.opts.shipPlaylist && text.includes("#EXTINF") && text !== this.playlistShipped) {
      await this.opts.store.write(this.opts.keyOf(this.opts.playlist), Readable.from([Buffer.from(text)]));
      this.playlistShipped = text;
      this.opts.onPlaylist?.();
    }
  }

  /** One last pass after the muxer finished; rejects with what went wrong on the way, if anything did. */
  async finish() {
    clearInterval(this.timer);
    this.watcher?.close();
    while (this.pass) await this.pass;
    this.kick();
    await this.pass;
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }

  /** What went wrong since the last look (a store that refuses writes, a fenced report). */
  takeFailure(): unknown {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  stop() {
    clearInterval(this.timer);
    this.watcher?.close();
  }
}
