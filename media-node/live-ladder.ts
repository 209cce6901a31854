import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { liveKey } from "@/lib/live/keys";
import type { PublishGrant } from "@/lib/media-node-protocol";
import { CpuMeter } from "./cpu-meter";
import type { Feed } from "./feed";
import { FeedProcess } from "./feed-process";
import { codecString, masterPlaylist, readMediaPlaylist, type Variant } from "@/lib/av/hls";
import { ladderArgs, variantDir, type LadderInput } from "./ladder";
import { LadderGovernor, type GovernorDecision } from "./ladder-governor";
import type { MediaStore } from "./media-store";
import { frameRate, probe } from "@/lib/av/probe";
import { HlsShipper, type ShippedSegment } from "./shipper";

/** Crashes (not drops or restores) the ladder survives before the broadcast is given up. */
const MAX_CRASHES = 3;
/** Segments of the source a stream waits for a slow rendition (a busy node) before it goes live without it. */
const READY_WAIT_SEGMENTS = 3;

export interface LiveLadderContext {
  grant: PublishGrant;
  feed: Feed;
  store: MediaStore;
  segmentS: number;
  /** The ladder's scratch folder: one folder per variant (v0 the source, v1… the profiles). */
  dir: string;
  /** Source facts, from the publisher's metadata. */
  source(): Pick<LadderInput, "sourceIsH264" | "audio" | "sourceKbps">;
  /** A segment of a variant is in the store (v0: the source, the session's DVR). */
  segmentStored(variant: number, segment: ShippedSegment): Promise<void> | void;
  /** A variant's playlist is in the store (the stream may be ready now). */
  playlistStored(): void;
  /** Stored one segment in this many seconds. */
  segmentWritten?(seconds: number): void;
  /** An ffmpeg of the ladder exited unasked and was started again. */
  restarted?(): void;
  /** Renditions were dropped to keep up. */
  dropped?(count: number): void;
  /** The ladder keeps crashing: the broadcast is given up. */
  failed(): void;
}

/** How the ladder keeps up, for the session's health. */
export interface TranscodeHealth {
  lagS?: number;
  droppedRenditions: string[];
}

/**
 * The live HLS ladder of one broadcast: the source (v0) in one ffmpeg, copied (a fraction of a
 * core), and the profiles (v1…) in another, so the profiles can be dropped and brought back
 * (a restart at the live edge, their playlists continued after a discontinuity) while the
 * source runs on untouched. Every second check() reads how far each trails what the encoder
 * sent and lets the governor (media-node/ladder-governor.ts) drop renditions when the machine
 * cannot keep up, or bring them back. Players on a dropped rendition find its playlist gone
 * (404) and switch to another; new ones get a master without it. drain() lets both
 * processes work through what they were sent and closes every playlist with ENDLIST.
 */
export class LiveLadder {
  private source?: FeedProcess;
  private renditions?: FeedProcess;
  private readonly shippers = new Map<number, HlsShipper>();
  private readonly governor: LadderGovernor;
  private readonly cpu = new CpuMeter();
  /** The master's entry of each variant, probed from its first segment. */
  private readonly entries = new Map<number, Variant>();
  /** Whether a master was written: from then on it follows drops and restores. */
  private mastered = false;
  private masterWrites: Promise<void> = Promise.resolve();
  /** A drop or restore in progress: the renditions' ffmpeg is being replaced. */
  private changing?: Promise<void>;
  private crashes = 0;
  /** The segment number after every one stored: where a restarted variant without a playlist starts. */
  private nextSegment = 0;
  private draining = false;
  private lastLagS?: number;
  /** When the source first had a playlist in the store. */
  private sourceLiveAt?: number;

  constructor(private readonly ctx: LiveLadderContext) {
    this.governor = new LadderGovernor({
      segmentS: ctx.segmentS,
      renditions: ctx.grant.profiles.map((p, i) => ({ variant: i + 1, name: p.name, width: p.width, height: p.height, fps: p.fps })),
    });
  }

  async start() {
    for (let v = 0; v <= this.ctx.grant.profiles.length; v++) await this.ship(v);
    this.source = this.run("source", true);
    if (this.governor.running.length) this.renditions = this.run("renditions", true);
  }

  /** The variants running now: the source and the renditions not dropped. */
  private get variants(): number[] {
    return [0, ...this.governor.running];
  }

  /**
   * Whether the stream can go live: every running variant has a playlist in the store, or the
   * source has had one for READY_WAIT_SEGMENTS (renditions slow to start join the master later).
   */
  get live(): boolean {
    if (this.sourceLiveAt === undefined) return false;
    const waited = Date.now() - this.sourceLiveAt >= READY_WAIT_SEGMENTS * this.ctx.segmentS * 1000;
    return waited || this.variants.every((v) => this.shippers.get(v)?.live);
  }

  /** Whether the live output is behind now (trailing, or some renditions dropped). */
  get lagging(): boolean {
    return this.governor.lagging(this.lastLagS);
  }

  private folder(variant: number) {
    return path.join(this.ctx.dir, variantDir(variant));
  }

  /** Starts storing a variant's folder as ffmpeg writes it. */
  private async ship(variant: number) {
    await fs.mkdir(this.folder(variant), { recursive: true });
    const { sessionId, epoch } = this.ctx.grant;
    const shipper = new HlsShipper(this.folder(variant), {
      store: this.ctx.store,
      playlist: "index.m3u8",
      keyOf: (name) => liveKey(sessionId, epoch, `${variantDir(variant)}/${name}`),
      shipPlaylist: true,
      removeShipped: false,
      onSegment: async (s) => {
        this.nextSegment = Math.max(this.nextSegment, s.seq + 1);
        await this.ctx.segmentStored(variant, s);
      },
      onPlaylist: () => {
        if (variant === 0) this.sourceLiveAt ??= Date.now();
        // A rendition that came back (or was slow to start) joins the master once it plays.
        if (this.mastered && !this.entries.has(variant)) void this.writeMaster().catch(() => undefined);
        this.ctx.playlistStored();
      },
      onWrite: this.ctx.segmentWritten,
    });
    this.shippers.set(variant, shipper);
    shipper.start();
  }

  /**
   * One of the ladder's two ffmpeg processes. `fromStart`: the whole broadcast (the first
   * start); a restart takes the live edge and continues its playlists.
   */
  private run(role: "source" | "renditions", fromStart: boolean): FeedProcess {
    const running = this.governor.running;
    const profiles = role === "source" ? [] : running.map((v) => this.ctx.grant.profiles[v - 1]);
    const proc = new FeedProcess(this.ctx.feed, fromStart, (input) =>
      ladderArgs({
        input,
        outDir: this.ctx.dir,
        source: role === "source",
        profiles,
        variants: role === "source" ? [] : running,
        segmentS: this.ctx.segmentS,
        ...(fromStart ? {} : { resumeAt: this.nextSegment }),
        ...this.ctx.source(),
      }),
    );
    void proc.exited.then((code) => {
      if (this.draining || (role === "source" ? this.source : this.renditions) !== proc) return;
      this.ctx.restarted?.();
      // A crashed transcoder restarts (a few times); the broadcast itself carries on.
      if (this.crashes++ < MAX_CRASHES) {
        console.error(`[media] ${role} transcoder of ${this.ctx.grant.sessionId} exited (${code}), restarting:\n${proc.stderrTail()}`);
        if (role === "source") this.source = this.run("source", false);
        else this.renditions = this.run("renditions", false);
      } else {
        console.error(`[media] transcoder of ${this.ctx.grant.sessionId} keeps failing; ending the session`);
        this.ctx.failed();
      }
    });
    return proc;
  }

  /**
   * Once a second: how far the live output trails the encoder (the worse of the two
   * processes), and what the governor makes of it.
   */
  check(now = Date.now()): TranscodeHealth {
    const lags = [this.source, this.renditions].flatMap((p) => (p ? [p.lagS(now)] : []));
    const known = lags.filter((l): l is number => l !== undefined);
    const lagS = known.length ? Math.max(...known) : undefined;
    this.lastLagS = lagS;
    const cpuBusy = this.cpu.read();
    if (!this.draining && !this.changing) {
      // Judged once both processes write: a starting one (a restart) has no pace yet.
      const decision = this.governor.observe({ at: now, lagS: known.length === lags.length ? lagS : undefined, cpuBusy });
      if (decision.action !== "keep") {
        this.changing = this.change(decision, lagS)
          .catch((err) => console.error(`[media] changing the ladder of ${this.ctx.grant.sessionId} failed:`, err.message))
          .finally(() => (this.changing = undefined));
      }
    }
    return {
      ...(lagS !== undefined ? { lagS: Math.round(lagS * 10) / 10 } : {}),
      droppedRenditions: this.governor.dropped.map((r) => r.name),
    };
  }

  /** Replaces the renditions' ffmpeg with one for the renditions the governor keeps. */
  private async change(decision: Exclude<GovernorDecision, { action: "keep" }>, lagS: number | undefined) {
    const old = this.renditions;
    this.renditions = undefined;
    await old?.stop();
    try {
      if (decision.action === "drop") await this.dropRenditions(decision.variants, lagS);
      else await this.restoreRenditions(decision.variants);
    } finally {
      if (!this.draining && this.governor.running.length) this.renditions = this.run("renditions", false);
    }
  }

  private names(variants: number[]) {
    return variants.map((v) => this.ctx.grant.profiles[v - 1].name).join(", ");
  }

  private async dropRenditions(variants: number[], lagS: number | undefined) {
    console.error(`[media] ${this.ctx.grant.sessionId}: transcoding fell ${lagS?.toFixed(1)} s behind real time, dropping ${this.names(variants)}`);
    this.ctx.dropped?.(variants.length);
    for (const v of variants) {
      const shipper = this.shippers.get(v)!;
      this.shippers.delete(v);
      // What the old ffmpeg wrote last is stored before the folder goes, not after.
      await shipper.finish().catch(() => undefined);
      shipper.stop();
    }
    // New viewers no longer see them; players on them get a 404 and switch.
    if (this.mastered) await this.writeMaster();
    const { sessionId, epoch } = this.ctx.grant;
    for (const v of variants) {
      this.entries.delete(v);
      await this.ctx.store.removePrefix(liveKey(sessionId, epoch, `${variantDir(v)}/`)).catch(() => undefined);
      // A rendition that comes back starts a fresh playlist, its numbering after every segment so far.
      await fs.rm(this.folder(v), { recursive: true, force: true });
    }
  }

  private async restoreRenditions(variants: number[]) {
    console.error(`[media] ${this.ctx.grant.sessionId}: room again, bringing back ${this.names(variants)}`);
    for (const v of variants) await this.ship(v);
  }

  /** The master playlist of the running variants, each described from a probe of its first segment. */
  writeMaster(): Promise<void> {
    const write = async () => {
      const variants: Variant[] = [];
      for (const v of this.variants) {
        const entry = this.entries.get(v) ?? (this.shippers.get(v)?.live ? await this.probeEntry(v) : undefined);
        if (!entry) continue;
        this.entries.set(v, entry);
        variants.push(entry);
      }
      const { sessionId, epoch } = this.ctx.grant;
      await this.ctx.store.write(liveKey(sessionId, epoch, "index.m3u8"), Readable.from([Buffer.from(masterPlaylist(variants))]));
      this.mastered = true;
    };
    // One after the other: a drop and a rendition coming back may both rewrite it.
    const next = this.masterWrites.then(write);
    this.masterWrites = next.catch(() => undefined);
    return next;
  }

  private async probeEntry(v: number): Promise<Variant> {
    const dir = this.folder(v);
    // The newest: older ones leave the folder as the live window slides.
    const newest = (await readMediaPlaylist(path.join(dir, "index.m3u8"))).at(-1);
    if (!newest) throw new Error(`${variantDir(v)} has no segment yet`);
    const file = path.join(dir, newest.uri);
    const [info, stat] = await Promise.all([probe(file), fs.stat(file)]);
    const video = info.streams.find((s) => s.codec_type === "video");
    const audio = info.streams.find((s) => s.codec_type === "audio");
    const profile = this.ctx.grant.profiles[v - 1];
    const measured = (stat.size * 8) / Math.max(newest.duration, 0.5);
    return {
      uri: `${variantDir(v)}/index.m3u8`,
      name: profile?.name ?? "source",
      bandwidth: profile ? Math.max(profile.bitrate * 1.1 + (audio ? 128_000 : 0), measured) : measured * 1.2,
      width: video?.width ?? profile?.width ?? 0,
      height: video?.height ?? profile?.height ?? 0,
      frameRate: frameRate(video?.avg_frame_rate),
      codecs: [video, audio].flatMap((s) => (s ? [codecString(s)].filter((c): c is string => !!c) : [])),
    };
  }

  /**
   * The publisher is gone (the feed is closed): each ffmpeg works through what it was sent
   * and ends by itself, however far behind it was, unless it stops making progress.
   */
  async drain() {
    this.draining = true;
    await this.changing;
    await Promise.all([this.source?.drain(), this.renditions?.drain()]);
  }

  /** Stores the last segments and every running variant's playlist, closed with ENDLIST; rejects with what failed. */
  async publishEnd() {
    await this.masterWrites;
    for (const v of this.variants) {
      const file = path.join(this.folder(v), "index.m3u8");
      const text = await fs.readFile(file, "utf8").catch(() => "");
      if (text.includes("#EXTINF") && !text.includes("#EXT-X-ENDLIST")) await fs.writeFile(file, `${text.trimEnd()}\n#EXT-X-ENDLIST\n`);
    }
    const finished = await Promise.allSettled([...this.shippers.values()].map((s) => s.finish()));
    const failed = finished.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /** What went wrong storing since the last look. */
  takeFailure(): unknown {
    return [...this.shippers.values()].map((s) => s.takeFailure()).find(Boolean);
  }

  /** Stops at once (a fenced session writes nothing more). */
  async stop() {
    this.draining = true;
    await Promise.all([this.source?.stop(), this.renditions?.stop()]);
    this.shippers.forEach((s) => s.stop());
  }
}
