import fs from "node:fs/promises";
import path from "node:path";
import type { IngestHealth, LiveTarget, PublishGrant } from "@/lib/live/schema";
import type { AppClient } from "./app-client";
import type { Feed } from "./feed";
import { runFfmpeg, type FfmpegProcess } from "./ffmpeg";
import { codecString, masterPlaylist, readMediaPlaylist, type Variant } from "./hls";
import { ladderArgs, pushArgs, READER_DRAIN_MS, recorderArgs, variantDir } from "./ladder";
import { frameRate, probe } from "./probe";
import { redactTargetSecrets, routeToTarget, type TargetRoute } from "@/lib/targets/connect";

/** What the media node knows of the RTMP publisher (from node-media-server). */
export interface Publisher {
  inBytes(): number;
  /** Source facts from the stream's metadata and headers. */
  info(): { sourceIsH264: boolean; audio: "aac" | "other" | "none"; fps?: number; kbps?: number };
  /** Frame rate and keyframe interval of the video, for ingest health. */
  videoStats(): { fps?: number; keyframeIntervalS?: number };
  /** Cuts the publisher's connection (suspend, delete, hung). */
  cut(): void;
}

export interface BroadcastContext {
  app: AppClient;
  /** The broadcast for this node's readers (transcoder, recorder, pushes). */
  feed: Feed;
  mediaDir: string;
  segmentS: number;
}

const HEARTBEAT_MS = 1000;
const WATCH_MS = 200;
/** A publisher that sends nothing this long is cut (a network black-hole raises no socket event). */
const STALL_MS = 4000;

/**
 * One live session on this node: the transcoder (HLS ladder), the recorder,
 * one push per multistream target, the playlist watcher (readiness, counters)
 * and the heartbeat to the app. end() stops them all and reports once.
 */
export class Broadcast {
  readonly liveDir: string;
  readonly recordingDir: string;
  private transcoder?: FfmpegProcess;
  private recorder?: FfmpegProcess;
  private readonly pushes = new Map<string, Push>();
  private timers: NodeJS.Timeout[] = [];
  private ending = false;
  private ready = false;
  private watching = false;
  private transcoderRestarts = 0;
  private readonly seen = new Map<number, Set<string>>();
  private pending = { sourceSegments: 0, transcodedSegments: 0, sourceSegmentsDuration: 0, transcodedSegmentsDuration: 0 };
  private lastBytes = 0;
  private lastProgressAt = Date.now();
  private health?: IngestHealth;

  constructor(
    readonly grant: PublishGrant,
    private readonly publisher: Publisher,
    private readonly ctx: BroadcastContext,
  ) {
    this.liveDir = path.join(ctx.mediaDir, "live", grant.sessionId);
    this.recordingDir = path.join(ctx.mediaDir, "recordings", grant.sessionId);
  }

  async start() {
    await fs.rm(this.liveDir, { recursive: true, force: true });
    for (let i = 0; i <= this.grant.profiles.length; i++) await fs.mkdir(path.join(this.liveDir, variantDir(i)), { recursive: true });
    this.startTranscoder(true);
    if (this.grant.record) {
      await fs.mkdir(this.recordingDir, { recursive: true });
      this.startRecorder(true);
    }
    this.syncTargets(this.grant.targets);
    this.timers.push(setInterval(() => void this.watch(), WATCH_MS));
    this.timers.push(setInterval(() => void this.beat(), HEARTBEAT_MS));
  }

  /** `fromStart`: the whole broadcast so far; a restart takes the live edge. */
  private startTranscoder(fromStart: boolean) {
    const info = this.publisher.info();
    this.transcoder = runFfmpeg(
      ladderArgs({
        input: this.ctx.feed.input(fromStart),
        outDir: this.liveDir,
        profiles: this.grant.profiles,
        segmentS: this.ctx.segmentS,
        sourceIsH264: info.sourceIsH264,
        audio: info.audio,
        sourceFps: info.fps,
        sourceKbps: info.kbps,
      }),
    );
    const proc = this.transcoder;
    void proc.exited.then((code) => {
      if (this.ending || proc !== this.transcoder) return;
      // A crashed transcoder restarts (a few times); the broadcast itself carries on.
      if (this.transcoderRestarts++ < 3) {
        console.error(`[media] transcoder of ${this.grant.sessionId} exited (${code}), restarting:\n${proc.stderrTail()}`);
        this.startTranscoder(false);
      } else {
        console.error(`[media] transcoder of ${this.grant.sessionId} keeps failing; ending the session`);
        this.publisher.cut();
      }
    });
  }

  /** The recorder appends to the session's recording, so a restart (or a reconnect) continues it. */
  private startRecorder(fromStart: boolean) {
    const proc = runFfmpeg(recorderArgs(this.ctx.feed.input(fromStart), this.recordingDir, this.ctx.segmentS));
    this.recorder = proc;
    void proc.exited.then((code) => {
      if (this.ending || proc !== this.recorder) return;
      console.error(`[media] recorder of ${this.grant.sessionId} exited (${code}), restarting:\n${proc.stderrTail()}`);
      setTimeout(() => !this.ending && this.startRecorder(false), 500);
    });
  }

  /** New segments become counters; the first segment of every rendition makes the stream ready. */
  private async watch() {
    if (this.ending || this.watching) return;
    this.watching = true;
    try {
      const complete = await this.countSegments();
      if (complete && !this.ready) await this.becomeReady();
    } finally {
      this.watching = false;
    }
  }

  /** Adds the segments written since the last look to the counters; whether every rendition has one. */
  private async countSegments(): Promise<boolean> {
    const variants = this.grant.profiles.length + 1;
    let complete = true;
    for (let i = 0; i < variants; i++) {
      const segments = await readMediaPlaylist(path.join(this.liveDir, variantDir(i), "index.m3u8"));
      if (!segments.length) complete = false;
      const seen = this.seen.get(i) ?? new Set<string>();
      this.seen.set(i, seen);
      for (const s of segments) {
        if (seen.has(s.uri)) continue;
        seen.add(s.uri);
        if (i === 0) {
          this.pending.sourceSegments++;
          this.pending.sourceSegmentsDuration += s.duration;
        } else {
          this.pending.transcodedSegments++;
          this.pending.transcodedSegmentsDuration += s.duration;
        }
      }
    }
    return complete;
  }

  private async becomeReady() {
    this.ready = true;
    try {
      await this.writeMaster();
      await this.ctx.app.event({ kind: "ready", sessionId: this.grant.sessionId });
      // The transcoder and the recorder have the beginning; later readers start at the live edge.
      this.ctx.feed.release();
    } catch (err) {
      this.ready = false;
      console.error(`[media] ${this.grant.sessionId} not ready yet:`, err);
    }
  }

  private async writeMaster() {
    const variants: Variant[] = await Promise.all(
      Array.from({ length: this.grant.profiles.length + 1 }, async (_, i) => {
        const dir = path.join(this.liveDir, variantDir(i));
        const [first] = await readMediaPlaylist(path.join(dir, "index.m3u8"));
        const file = path.join(dir, first.uri);
        const [info, stat] = await Promise.all([probe(file), fs.stat(file)]);
        const video = info.streams.find((s) => s.codec_type === "video");
        const audio = info.streams.find((s) => s.codec_type === "audio");
        const profile = this.grant.profiles[i - 1];
        const measured = (stat.size * 8) / Math.max(first.duration, 0.5);
        return {
          uri: `${variantDir(i)}/index.m3u8`,
          name: profile?.name ?? "source",
          bandwidth: profile ? Math.max(profile.bitrate * 1.1 + (audio ? 128_000 : 0), measured) : measured * 1.2,
          width: video?.width ?? profile?.width ?? 0,
          height: video?.height ?? profile?.height ?? 0,
          frameRate: frameRate(video?.avg_frame_rate),
          codecs: [video, audio].flatMap((s) => (s ? [codecString(s)].filter((c): c is string => !!c) : [])),
        };
      }),
    );
    const tmp = path.join(this.liveDir, "index.m3u8.tmp");
    await fs.writeFile(tmp, masterPlaylist(variants));
    await fs.rename(tmp, path.join(this.liveDir, "index.m3u8"));
  }

  private async beat() {
    if (this.ending) return;
    const now = Date.now();
    const bytes = this.publisher.inBytes();
    const { fps, keyframeIntervalS } = this.publisher.videoStats();
    if (bytes !== this.lastBytes) this.lastProgressAt = now;
    else if (now - this.lastProgressAt > STALL_MS) {
      console.error(`[media] ${this.grant.sessionId}: no data for ${STALL_MS / 1000} s, cutting the publisher`);
      this.publisher.cut();
      return;
    }
    this.health = {
      bitrateKbps: Math.round(((bytes - this.lastBytes) * 8) / HEARTBEAT_MS),
      ...(fps ? { fps } : {}),
      ...(keyframeIntervalS ? { keyframeIntervalS } : {}),
      updatedAt: now,
    };
    this.lastBytes = bytes;
    const increments = this.pending;
    this.pending = { sourceSegments: 0, transcodedSegments: 0, sourceSegmentsDuration: 0, transcodedSegmentsDuration: 0 };
    try {
      const reply = await this.ctx.app.heartbeat({ sessionId: this.grant.sessionId, ...increments, health: this.health });
      if (reply.stop) this.publisher.cut();
      else this.syncTargets(reply.targets);
    } catch (err) {
      // counters are kept for the next beat
      for (const k of Object.keys(increments) as (keyof typeof increments)[]) this.pending[k] += increments[k];
      console.error(`[media] heartbeat of ${this.grant.sessionId} failed:`, (err as Error).message);
    }
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

  /** The publisher is gone: stop everything, finish the recording's playlist, tell the app once. */
  async end() {
    if (this.ending) return;
    this.ending = true;
    this.timers.forEach((t) => clearInterval(t));
    // Readers end by themselves once their input ends, writing their last segments and playlists.
    this.ctx.feed.close();
    const drained = (proc?: FfmpegProcess) =>
      proc && Promise.race([proc.exited, new Promise((r) => setTimeout(r, READER_DRAIN_MS))]).then(() => proc.stop());
    await Promise.all([drained(this.transcoder), drained(this.recorder), ...[...this.pushes.values()].map((p) => p.stop())]);
    // The last segments, written as the transcoder finished, belong to the session's duration too.
    await this.countSegments();
    const recordingPath = this.grant.record ? await this.finishRecordingPlaylist() : undefined;
    const { sourceSegments, transcodedSegments } = this.pending;
    if (sourceSegments || transcodedSegments) {
      await this.ctx.app.heartbeat({ sessionId: this.grant.sessionId, ...this.pending }).catch(() => undefined);
    }
    await this.ctx.app
      .event({ kind: "ended", sessionId: this.grant.sessionId, ...(recordingPath ? { recordingPath } : {}) })
      .catch((err) => console.error(`[media] reporting the end of ${this.grant.sessionId} failed:`, err.message));
    // Players may still fetch the last segments for a moment.
    setTimeout(() => void fs.rm(this.liveDir, { recursive: true, force: true }), 30_000).unref();
  }

  /** index.m3u8 = the recorder's event playlist, closed: playable as VOD the moment the broadcast ends. */
  private async finishRecordingPlaylist(): Promise<string | undefined> {
    const working = await fs.readFile(path.join(this.recordingDir, "live.m3u8"), "utf8").catch(() => "");
    if (!working.includes("#EXTINF")) return undefined;
    const closed = working.replace("#EXT-X-PLAYLIST-TYPE:EVENT", "#EXT-X-PLAYLIST-TYPE:VOD").trimEnd() + "\n#EXT-X-ENDLIST\n";
    await fs.writeFile(path.join(this.recordingDir, "index.m3u8"), closed);
    return `/recordings/${this.grant.sessionId}/index.m3u8`;
  }
}

/**
 * One multistream target: an ffmpeg push retried with back-off while the
 * broadcast lasts; connected/error/disconnected reported to the app. Every
 * attempt resolves and checks the target's host first (a DNS name can change)
 * and ffmpeg connects to the checked address only; a private one is reported
 * as the error and not connected to.
 */
class Push {
  private proc?: FfmpegProcess;
  private route?: TargetRoute;
  private stopped = false;
  private connected = false;
  private failures = 0;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly target: LiveTarget,
    private readonly broadcast: Broadcast,
    private readonly ctx: BroadcastContext,
  ) {}

  private report(state: "connected" | "error" | "disconnected", error?: string) {
    void this.ctx.app
      .event({ kind: "multistream", sessionId: this.broadcast.grant.sessionId, targetId: this.target.id, state, ...(error ? { error } : {}) })
      .catch((err) => console.error("[media] multistream event failed:", err.message));
  }

  private get over() {
    return this.stopped || this.broadcast.isEnding;
  }

  start() {
    void this.attempt();
  }

  private async attempt() {
    if (this.over) return;
    let route: TargetRoute;
    try {
      route = await routeToTarget(this.target.url);
    } catch (err) {
      return this.failed(err instanceof Error ? err.message : String(err));
    }
    if (this.over) return void route.close();
    this.route = route;
    const proc = runFfmpeg(this.broadcast.pushArgsFor(this.target, route), {
      env: route.env,
      onProgress: (p) => {
        if (!this.connected && Number(p.out_time_us ?? 0) > 0) {
          this.connected = true;
          this.failures = 0;
          this.report("connected");
        }
      },
    });
    this.proc = proc;
    void proc.exited.then((code) => {
      void route.close();
      if (this.over) return;
      const said = proc.stderrTail().split("\n").filter(Boolean).slice(-2).join(" ");
      this.failed(route.failure() ?? (said || `ffmpeg exited with ${code}`));
    });
  }

  private failed(message: string) {
    if (this.over) return;
    if (this.connected) this.report("disconnected");
    this.connected = false;
    this.report("error", redactTargetSecrets(message, this.target.url));
    const delay = Math.min(2000 * 2 ** this.failures++, 30_000);
    this.retry = setTimeout(() => void this.attempt(), delay);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.proc?.stop();
    await this.route?.close();
    if (this.connected) this.report("disconnected");
    this.connected = false;
  }
}
