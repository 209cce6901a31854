// biome-ignore-all format: ffmpeg command lines, each option beside its value
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { liveKey, liveThumbnailKey, recordingKey } from "@/lib/live/keys";
import type { IngestHealth, LiveTarget, PublishGrant, SegmentCounters } from "@/lib/media-node-protocol";
import { Fenced, type AppClient } from "./app-client";
import type { Feed } from "./feed";
import { FeedProcess } from "./feed-process";
import { runFfmpeg, type FfmpegProcess } from "@/lib/av/ffmpeg";
import type { MediaStore } from "./media-store";
import { HlsShipper, type ShippedSegment } from "./shipper";
import { pushArgs, recorderArgs, variantDir } from "./ladder";
import { LiveLadder } from "./live-ladder";
import { Push } from "./push";
import type { TargetRoute } from "@/lib/targets/connect";

/** What the media node knows of the RTMP publisher (from node-media-server). */
export interface Publisher {
  inBytes(): number;
  /** Source facts from the stream's metadata and headers. */
  info(): { sourceIsH264: boolean; audio: "aac" | "other" | "none"; kbps?: number };
  /** Bitrate (from the media's own timestamps), frame rate and keyframe interval of the feed, for ingest health. */
  feedStats(): { bitrateKbps?: number; fps?: number; keyframeIntervalS?: number };
  /** Cuts the publisher's connection (suspend, delete, hung). */
  cut(): void;
}

export interface BroadcastContext {
  app: AppClient;
  /** The broadcast for this node's readers (transcoder, recorder, pushes). */
  feed: Feed;
  /** This node's scratch folder: ffmpeg writes here, shippers move it to the store. */
  scratchDir: string;
  store: MediaStore;
  segmentS: number;
  /** What happens on this node, for its metrics. */
  observe?: BroadcastObserver;
}

export interface BroadcastObserver {
  ffmpegRestarted(role: "transcoder" | "recorder" | "push"): void;
  segmentStored(kind: "live" | "recording", seconds: number): void;
  /** Renditions dropped because the node could not keep up in real time. */
  renditionsDropped(count: number): void;
}

const HEARTBEAT_MS = 1000;
/** How many times the end of a broadcast is reported before the app is left to notice the silence. */
const END_REPORT_ATTEMPTS = 4;
/** A publisher that sends nothing this long is cut (a network black-hole raises no socket event). */
const STALL_MS = 4000;
/** Players may still fetch the last segments of a finished broadcast for a moment. */
const LIVE_LINGER_MS = 30_000;
/** How often the live thumbnail is refreshed (at most: one per stored source segment). */
const THUMBNAIL_EVERY_MS = 5000;

/**
 * One live session on this node, for one epoch of it: the ladder (media-node/live-ladder.ts)
 * and the recorder write to scratch, shippers store every segment and
 * playlist as it is written (live/<session>/<epoch>/, recordings/<session>/<epoch>/),
 * plus one push per multistream target and the heartbeat to the app. When the publisher
 * leaves, end() lets the ladder and the recorder work through what they were sent, stores
 * the last segments and closed playlists, and only then reports the end (heartbeating
 * meanwhile): every second the encoder sent reaches live viewers. When the app says the
 * session is no longer this node's (fenced), it cuts the publisher and writes nothing more.
 */
export class Broadcast {
  private readonly dir: string;
  private readonly recordingDir: string;
  private readonly ladder: LiveLadder;
  private recorder?: FeedProcess;
  private recording?: HlsShipper;
  private readonly pushes = new Map<string, Push>();
  private timers: NodeJS.Timeout[] = [];
  private ending = false;
  private fenced = false;
  private ready = false;
  /** What this epoch stored so far: every heartbeat and the end carry these totals (SegmentCounters). */
  private readonly counters: SegmentCounters = { sourceSegments: 0, transcodedSegments: 0, sourceSegmentsDuration: 0, transcodedSegmentsDuration: 0 };
  private lastBytes = 0;
  private lastProgressAt = Date.now();
  private health?: IngestHealth;
  private thumbnailAt = 0;
  private thumbnailing = false;
  /** The live thumbnail's ffmpeg, which writes into the scratch folder: stopped before the folder goes. */
  private thumbnailer?: FfmpegProcess;
  private multistreamReports = 0;

  constructor(
    readonly grant: PublishGrant,
    private readonly publisher: Publisher,
    private readonly ctx: BroadcastContext,
  ) {
    this.dir = path.join(ctx.scratchDir, `${grant.sessionId}-${grant.epoch}`);
    this.recordingDir = path.join(this.dir, "recording");
    this.ladder = new LiveLadder({
      grant,
      feed: ctx.feed,
      store: ctx.store,
      segmentS: ctx.segmentS,
      dir: path.join(this.dir, "live"),
      source: () => {
        const { sourceIsH264, audio, kbps } = publisher.info();
        return { sourceIsH264, audio, sourceKbps: kbps };
      },
      segmentStored: async (variant, s) => {
        if (variant === 0) await this.sourceSegmentStored(s);
        this.counted(variant, s.duration);
      },
      playlistStored: () => this.readyIfLive(),
      segmentWritten: (seconds) => ctx.observe?.segmentStored("live", seconds),
      restarted: () => ctx.observe?.ffmpegRestarted("transcoder"),
      dropped: (count) => ctx.observe?.renditionsDropped(count),
      failed: () => publisher.cut(),
    });
  }

  private get session() {
    return { sessionId: this.grant.sessionId, epoch: this.grant.epoch };
  }

  async start() {
    await fs.rm(this.dir, { recursive: true, force: true });
    const { sessionId, epoch } = this.grant;
    await this.ladder.start();
    if (this.grant.record) {
      await fs.mkdir(this.recordingDir, { recursive: true });
      this.recording = new HlsShipper(this.recordingDir, {
        store: this.ctx.store,
        playlist: "live.m3u8",
        keyOf: (name) => recordingKey(sessionId, epoch, name),
        shipPlaylist: false,
        removeShipped: true,
        // The app lists the segment in the recording only now that it is stored.
        onSegment: (s) =>
          this.ctx.app.event({
            kind: "recorded",
            ...this.session,
            seq: s.seq,
            file: s.uri,
            duration: s.duration,
            size: s.size,
            ...(s.programDateTime ? { startedAt: Math.round(s.programDateTime) } : {}),
          }),
        onWrite: (seconds) => this.ctx.observe?.segmentStored("recording", seconds),
      });
      this.recording.start();
      this.startRecorder(true);
    }
    this.syncTargets(this.grant.targets);
    this.timers.push(setInterval(() => void this.beat(), HEARTBEAT_MS));
  }

  /** The recorder appends to this epoch's recording, so a restart continues its numbering. */
  private startRecorder(fromStart: boolean) {
    const proc = new FeedProcess(this.ctx.feed, fromStart, (input) => recorderArgs(input, this.recordingDir, this.ctx.segmentS));
    this.recorder = proc;
    void proc.exited.then((code) => {
      if (this.ending || proc !== this.recorder) return;
      this.ctx.observe?.ffmpegRestarted("recorder");
      console.error(`[media] recorder of ${this.grant.sessionId} exited (${code}), restarting:\n${proc.stderrTail()}`);
      setTimeout(() => !this.ending && this.startRecorder(false), 500);
    });
  }

  /**
   * A source segment is in the store: the app lists it in the session's DVR (with its
   * wall-clock start, for clips), and now and then its first keyframe becomes the live
   * thumbnail (one keyframe decoded: cheap, whatever the ladder).
   */
  private async sourceSegmentStored(s: ShippedSegment) {
    const startedAt = Math.round(s.programDateTime ?? Date.now() - s.duration * 1000);
    await this.ctx.app.event({ kind: "live-segment", ...this.session, seq: s.seq, file: s.uri, duration: s.duration, startedAt });
    if (this.thumbnailing || Date.now() - this.thumbnailAt < THUMBNAIL_EVERY_MS) return;
    this.thumbnailing = true;
    this.thumbnailAt = Date.now();
    void this.storeThumbnail(s.file)
      // Ending removes the scratch folder, the segment with it: no thumbnail is wanted then.
      .catch((err) => !this.ending && console.error(`[media] thumbnail of ${this.grant.sessionId} failed:`, (err as Error).message))
      .finally(() => (this.thumbnailing = false));
  }

  private async storeThumbnail(segmentFile: string) {
    const jpeg = path.join(this.dir, "thumbnail.jpg");
    const proc = runFfmpeg(["-hide_banner", "-loglevel", "error", "-y", "-skip_frame", "nokey", "-i", segmentFile, "-frames:v", "1", "-vf", "scale=480:-2", "-q:v", "5", jpeg]);
    this.thumbnailer = proc;
    const code = await proc.exited;
    if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${proc.stderrTail()}`);
    if (this.ending) return;
    const { sessionId, epoch } = this.grant;
    await this.ctx.store.write(liveThumbnailKey(sessionId, epoch), Readable.from([await fs.readFile(jpeg)]));
  }

  /** A stored live segment: counted, and once every rendition has one in the store, the stream is ready. */
  private counted(variant: number, duration: number) {
    if (variant === 0) {
      this.counters.sourceSegments++;
      this.counters.sourceSegmentsDuration += duration;
    } else {
      this.counters.transcodedSegments++;
      this.counters.transcodedSegmentsDuration += duration;
    }
  }

  /** Once the ladder can go live (every variant stored, or the source long enough), the stream is made ready, once. */
  private readyIfLive() {
    if (!this.ready && this.ladder.live) void this.becomeReady();
  }

  private async becomeReady() {
    this.ready = true;
    try {
      await this.ladder.writeMaster();
      await this.ctx.app.event({ kind: "ready", ...this.session });
      // The transcoder and the recorder have the beginning; later readers start at the live edge.
      this.ctx.feed.release();
    } catch (err) {
      this.ready = false;
      if (err instanceof Fenced) return this.letGo(err);
      console.error(`[media] ${this.grant.sessionId} not ready yet:`, err);
    }
  }

  /**
   * Every second while live, and while the ladder drains after the publisher left: the
   * counters, the ingest health (with how far the live output trails and what was dropped
   * to keep up), and the app's answer (stop, the targets).
   */
  private async beat() {
    if (this.fenced) return;
    const failure = [this.recording?.takeFailure(), this.ladder.takeFailure()].find(Boolean);
    if (failure instanceof Fenced) return this.letGo(failure);
    if (failure) console.error(`[media] storing ${this.grant.sessionId}'s media failed (retrying):`, (failure as Error).message);

    const now = Date.now();
    const { lagS, droppedRenditions } = this.ladder.check(now);
    const transcoding = { ...(lagS !== undefined ? { lagS } : {}), ...(droppedRenditions.length ? { droppedRenditions } : {}) };
    if (this.ending) {
      // The encoder is gone: only the ladder's catching up is news.
      this.health = { ...transcoding, updatedAt: now };
    } else {
      const bytes = this.publisher.inBytes();
      const { bitrateKbps, fps, keyframeIntervalS } = this.publisher.feedStats();
      if (bytes !== this.lastBytes) this.lastProgressAt = now;
      else if (now - this.lastProgressAt > STALL_MS) {
        console.error(`[media] ${this.grant.sessionId}: no data for ${STALL_MS / 1000} s, cutting the publisher`);
        this.publisher.cut();
        return;
      }
      this.health = {
        ...(bitrateKbps !== undefined ? { bitrateKbps } : {}),
        ...(fps ? { fps } : {}),
        ...(keyframeIntervalS ? { keyframeIntervalS } : {}),
        ...transcoding,
        updatedAt: now,
      };
      this.lastBytes = bytes;
      // A readiness that failed (a probe, the app's answer) is tried again here too, not only
      // when the next playlist is stored: segments can be many seconds apart.
      this.readyIfLive();
    }
    try {
      // Totals: a beat that failed (or arrives late) is made good by the next one, or by the end.
      const reply = await this.ctx.app.heartbeat({ ...this.session, ...this.counters, health: this.health });
      if (reply.stop) this.publisher.cut();
      else this.syncTargets(reply.targets);
    } catch (err) {
      console.error(`[media] heartbeat of ${this.grant.sessionId} failed:`, (err as Error).message);
    }
  }

  /**
   * The end, with the epoch's final counters (whatever heartbeats the app missed): tried a few
   * times, since a busy app that misses it would end the session only when it notices the silence.
   */
  private async reportEnd() {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ctx.app.event({ kind: "ended", ...this.session, counters: { ...this.counters } });
      } catch (err) {
        if (err instanceof Fenced || attempt === END_REPORT_ATTEMPTS) {
          return console.error(`[media] reporting the end of ${this.grant.sessionId} failed:`, (err as Error).message);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      }
    }
  }

  /** The session is another node's now, or nobody's: stop at once, write and report nothing more. */
  letGo(reason: Error) {
    if (this.fenced) return;
    this.fenced = true;
    console.error(`[media] ${reason.message}: letting the publisher go`);
    this.publisher.cut();
  }

  /** Starts pushes for new targets, stops removed or changed ones; the others carry on. */
  private syncTargets(targets: LiveTarget[]) {
    if (this.ending) return;
    const key = (t: LiveTarget) => `${t.id}|${t.url}|${t.profile}|${t.videoOnly}`;
    const wanted = new Map(targets.map((t) => [key(t), t]));
    for (const [k, push] of this.pushes) {
      if (!wanted.has(k)) {
        this.pushes.delete(k);
        void push.stop();
      }
    }
    for (const [k, target] of wanted) {
      if (this.pushes.has(k)) continue;
      const push = new Push(target, this, this.ctx);
      this.pushes.set(k, push);
      push.start();
    }
  }

  pushArgsFor(target: LiveTarget, route: TargetRoute) {
    const profile = target.profile === "source" ? undefined : this.grant.profiles.find((p) => p.name === target.profile);
    return pushArgs(this.ctx.feed.input(true), target, route, profile, this.publisher.info().audio);
  }

  get isEnding() {
    return this.ending;
  }

  /** Whether its live output is behind real time now (renditions dropped, or trailing the encoder). */
  get lagging() {
    return this.ladder.lagging;
  }

  /** Orders this epoch's multistream reports, which travel as separate requests and may overtake each other. */
  nextMultistreamSeq() {
    return this.multistreamReports++;
  }

  /**
   * The publisher is gone: the ladder and the recorder work through what they were sent
   * (the session stays live and heartbeats meanwhile), the last segments and the closed
   * playlists are stored, and then the app is told, once. A fenced session stops at once.
   */
  async end() {
    if (this.ending) return;
    this.ending = true;
    // Readers end by themselves once their input ends, writing their last segments and playlists.
    this.ctx.feed.close();
    await Promise.all([
      this.fenced ? this.ladder.stop() : this.ladder.drain(),
      this.fenced ? this.recorder?.stop() : this.recorder?.drain(),
      this.thumbnailer?.stop(),
      ...[...this.pushes.values()].map((p) => p.stop()),
    ]);
    if (!this.fenced) {
      // The last segments, written as the transcoders and recorder finished, belong to the session too.
      const finished = await Promise.allSettled([this.recording?.finish(), this.ladder.publishEnd()]);
      for (const r of finished) if (r.status === "rejected") console.error(`[media] storing the end of ${this.grant.sessionId} failed:`, r.reason?.message);
    }
    this.timers.forEach((t) => clearInterval(t));
    if (!this.fenced) await this.reportEnd();
    this.recording?.stop();
    await this.ladder.stop();
    // Retried: a child that was still exiting may write one last file while the folder is emptied.
    await fs
      .rm(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
      .catch((err) => console.error(`[media] removing the scratch folder of ${this.grant.sessionId} failed:`, err.message));
    // The renditions go once players are done; the source rendition is the session's DVR,
    // which the app retires when LIVE_DVR_WINDOW_S has passed (lib/live/dvr.ts).
    const renditions = this.grant.profiles.map((_, i) => liveKey(this.grant.sessionId, this.grant.epoch, `${variantDir(i + 1)}/`));
    setTimeout(() => {
      for (const prefix of renditions) void this.ctx.store.removePrefix(prefix).catch(() => undefined);
    }, this.fenced ? 0 : LIVE_LINGER_MS).unref();
  }
}
