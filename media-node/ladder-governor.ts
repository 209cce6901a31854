import { lagLimitS } from "@/lib/media-node-protocol";

/**
 * Keeps a live ladder live on a machine that cannot keep up with it. Once a second it
 * reads how far the live output trails what the encoder sent (the lag) and the
 * machine's CPU; when the lag passes a few segments and would not come back soon, it
 * drops renditions, the costliest first and as many as the transcoder's pace says
 * (the source is never dropped: copying it costs nearly nothing). A dropped rendition
 * comes back, the cheapest first and one at a time, after the machine has had room for
 * a while; a rendition dropped again soon after coming back doubles that while.
 * Pure logic: the media node acts on its decisions (media-node/live-ladder.ts).
 */

/** A rendition of the ladder: its variant number (v1…) and what it costs to encode. */
export interface GovernedRendition {
  variant: number;
  name: string;
  width: number;
  height: number;
  fps: number;
}

export interface GovernorOptions {
  segmentS: number;
  renditions: GovernedRendition[];
  /** The source's picture, decoded once for all renditions (unknown: as large as the largest rendition). */
  source?: { width: number; height: number; fps: number };
}

export interface GovernorReading {
  at: number;
  /** Seconds of media the live output trails what the encoder sent (undefined: not measured yet). */
  lagS?: number;
  /** Share of the machine's CPU busy at normal priority since the last reading (0…1): what live work competes for. */
  cpuBusy: number;
}

export type GovernorDecision = { action: "keep" } | { action: "drop"; variants: number[] } | { action: "restore"; variants: number[] };

/** Readings this far back tell whether the lag grows or shrinks. */
const TREND_MS = 3000;
/** A behind ladder must be back under the limit within this long, or renditions go. */
const CATCH_UP_S = 15;
/** What the renditions kept may cost, as a share of what the transcoder managed: room for bursts. */
const HEADROOM = 0.8;
/** Decoding the source, per pixel, against an x264 veryfast encode of the same picture. */
const DECODE_SHARE = 0.3;
/** Room for a dropped rendition: the lag well under the limit and the CPU (at normal priority) no busier than this… */
const CALM_CPU_BUSY = 0.7;
/** …for this long, doubled for each rendition dropped again soon after it came back… */
export const RESTORE_AFTER_MS = 60_000;
const MAX_RESTORE_AFTER_MS = 16 * 60_000;
/** …"soon" being this long. */
const SETBACK_WINDOW_MS = 120_000;

const cost = (p: { width: number; height: number; fps: number }) => p.width * p.height * p.fps;

export class LadderGovernor {
  private readonly limitS: number;
  private readonly byVariant: Map<number, GovernedRendition>;
  /** Renditions running now (variant numbers). */
  private active: number[];
  /** The lag over the last TREND_MS, since the ladder that runs now started. */
  private readings: { at: number; lagS: number }[] = [];
  private calmSince?: number;
  private restoredAt?: number;
  private setbacks = 0;

  constructor(private readonly opts: GovernorOptions) {
    this.limitS = lagLimitS(opts.segmentS);
    this.byVariant = new Map(opts.renditions.map((r) => [r.variant, r]));
    this.active = opts.renditions.map((r) => r.variant);
  }

  /** The renditions running now, in variant order. */
  get running(): number[] {
    return [...this.active];
  }

  /** The renditions dropped now, in variant order. */
  get dropped(): GovernedRendition[] {
    return this.opts.renditions.filter((r) => !this.active.includes(r.variant));
  }

  /** Whether the live output is behind now: past the limit, or running without some renditions. */
  lagging(lagS: number | undefined): boolean {
    return (lagS ?? 0) > this.limitS || this.dropped.length > 0;
  }

  /** One reading, about once a second; the caller carries out what it answers. */
  observe(r: GovernorReading): GovernorDecision {
    if (r.lagS === undefined) return { action: "keep" };
    this.readings.push({ at: r.at, lagS: r.lagS });
    while (this.readings.length > 2 && r.at - this.readings[1].at >= TREND_MS) this.readings.shift();

    if (this.behind(r)) return this.drop(r.at);
    if (this.restoredAt !== undefined && r.at - this.restoredAt > SETBACK_WINDOW_MS) {
      this.restoredAt = undefined;
      this.setbacks = 0;
    }
    const calm = r.lagS < this.limitS / 2 && r.cpuBusy <= CALM_CPU_BUSY;
    if (!calm || this.active.length === this.opts.renditions.length) {
      this.calmSince = undefined;
      return { action: "keep" };
    }
    this.calmSince ??= r.at;
    const wait = Math.min(RESTORE_AFTER_MS * 2 ** this.setbacks, MAX_RESTORE_AFTER_MS);
    if (r.at - this.calmSince < wait) return { action: "keep" };
    const cheapest = this.dropped.sort((a, b) => cost(a) - cost(b))[0];
    this.active = [...this.active, cheapest.variant].sort((a, b) => a - b);
    this.restoredAt = r.at;
    this.restart();
    return { action: "restore", variants: [cheapest.variant] };
  }

  /** How fast the lag grows (s per s; negative: catching up), once the readings span enough time. */
  private growth(): number | undefined {
    const first = this.readings[0];
    const last = this.readings.at(-1)!;
    const span = (last.at - first.at) / 1000;
    return span >= (TREND_MS / 1000) * 0.66 ? (last.lagS - first.lagS) / span : undefined;
  }

  /** Past the limit, and not back under it within CATCH_UP_S at the pace it catches up (if it does). */
  private behind(r: GovernorReading): boolean {
    if (!this.active.length || r.lagS! <= this.limitS) return false;
    // A (re)started ladder is judged once its trend is known.
    const growth = this.growth();
    if (growth === undefined) return false;
    return growth >= 0 || (r.lagS! - this.limitS) / -growth > CATCH_UP_S;
  }

  /**
   * Drops the costliest renditions until what is kept (with the decode of the source they
   * share) costs no more than the transcoder's pace allows, one at least. The pace, media
   * seconds made per second, is what the lag's growth leaves of real time.
   */
  private drop(at: number): GovernorDecision {
    const pace = Math.min(1, Math.max(0, 1 - (this.growth() ?? 1)));
    const source = this.opts.source ?? this.opts.renditions.reduce((big, r) => (cost(r) > cost(big) ? r : big));
    const decode = cost(source) * DECODE_SHARE;
    const costliestFirst = this.active.map((v) => this.byVariant.get(v)!).sort((a, b) => cost(b) - cost(a) || b.variant - a.variant);
    const budget = pace * HEADROOM * (decode + costliestFirst.reduce((n, r) => n + cost(r), 0));
    const dropped: number[] = [];
    let kept = decode + costliestFirst.reduce((n, r) => n + cost(r), 0);
    for (const r of costliestFirst) {
      if (dropped.length && kept <= budget) break;
      dropped.push(r.variant);
      kept -= cost(r);
    }
    this.active = this.active.filter((v) => !dropped.includes(v));
    if (this.restoredAt !== undefined && at - this.restoredAt <= SETBACK_WINDOW_MS) this.setbacks++;
    this.restoredAt = undefined;
    this.restart();
    return { action: "drop", variants: dropped.sort((a, b) => a - b) };
  }

  /** The ladder restarts: its lag starts again. */
  private restart() {
    this.readings = [];
    this.calmSince = undefined;
  }
}
