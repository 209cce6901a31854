/**
 * A view as the player lives it, reported to POST /api/data/views/beacon (lib/analytics): play
 * intent, time to first frame, rebuffering, errors, watch time, seeks, quality changes and the
 * exit. Each beacon carries the view's totals so far (a lost one loses nothing). Framework-free:
 * Castline's player uses it, and so can any page with a <video>.
 */

/** What a beacon says, as lib/analytics/schema.ts Beacon takes it. */
export interface BeaconBody {
  playbackId: string;
  viewId: string;
  viewerId: string;
  event: "start" | "firstFrame" | "heartbeat" | "rebuffer" | "error" | "exit";
  playedMs: number;
  ttffMs?: number;
  rebufferCount: number;
  rebufferMs: number;
  errorCount: number;
  errorType?: string;
  seekCount: number;
  qualityChanges: number;
  height?: number;
  mode?: "hls" | "webrtc" | "mp4";
  timezone?: string;
  ended: boolean;
}

/** While playing (or stalled), a beacon this often: the realtime count sees a view within 30 s. */
export const HEARTBEAT_MS = 10_000;
export const BEACON_PATH = "/api/data/views/beacon";

/** `bytes` random bytes in hex (crypto.randomUUID exists on secure pages only: a player on plain http must work too). */
const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const randomId = () => randomHex(16);

/**
 * A view's id: the time it began (milliseconds, 12 hex digits) then 80 random bits, as UUIDv7 or
 * ULID order theirs. The views table's key then holds the views still beating side by side at its
 * end, a few pages the database keeps in memory, where random ids would touch a page anywhere in
 * an index of millions of views with every beacon (docs/analytics.md). 80 bits keep it unguessable.
 */
export const newViewId = (now = Date.now()) => Math.max(0, Math.floor(now)).toString(16).padStart(12, "0").slice(-12) + randomHex(10);

/** The browser's viewer id: random, kept in localStorage (a new one where storage is refused, e.g. a partitioned frame). */
function viewerId(): string {
  try {
    const kept = localStorage.getItem("castline-viewer");
    if (kept && /^[\w-]{8,64}$/.test(kept)) return kept;
    const id = randomId();
    localStorage.setItem("castline-viewer", id);
    return id;
  } catch {
    return randomId();
  }
}

export class ViewBeacons {
  private readonly body: BeaconBody;
  private video: HTMLVideoElement | undefined;
  private readonly detach: (() => void)[] = [];
  /** performance.now() of the play intent, of the stall under way, of the last watch-time tick. */
  private intentAt: number | undefined;
  private stalledAt: number | undefined;
  private playingSince: number | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private started = false;

  constructor(
    playbackId: string,
    private readonly endpoint = BEACON_PATH,
  ) {
    let timezone: string | undefined;
    try {
      timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch {}
    this.body = {
      playbackId,
      viewId: newViewId(),
      viewerId: viewerId(),
      event: "start",
      playedMs: 0,
      rebufferCount: 0,
      rebufferMs: 0,
      errorCount: 0,
      seekCount: 0,
      qualityChanges: 0,
      ended: false,
      ...(timezone && { timezone }),
    };
    const onHide = () => document.visibilityState === "hidden" && this.send("heartbeat", true);
    const onPageHide = () => this.end();
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    this.detach.push(
      () => document.removeEventListener("visibilitychange", onHide),
      () => window.removeEventListener("pagehide", onPageHide),
    );
  }

  /** Follows a video element (a player may swap its element: the view goes on). */
  attach(video: HTMLVideoElement): () => void {
    this.video = video;
    const on = (type: string, listener: () => void) => {
      video.addEventListener(type, listener);
      return () => video.removeEventListener(type, listener);
    };
    const off = [
      on("play", () => this.intent()),
      on("playing", () => this.playing()),
      on("waiting", () => this.waiting()),
      on("pause", () => this.tick(false)),
      on("ended", () => this.tick(false)),
      on("timeupdate", () => this.tick(!this.video?.paused && this.stalledAt === undefined)),
      on("seeking", () => {
        this.body.seekCount++;
        this.tick(false);
      }),
      on("resize", () => this.resized()),
      on("error", () => this.error("mediaError")),
    ];
    // Autoplay may have begun before this was attached.
    if (!video.paused) this.intent();
    if (video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA && !video.paused) this.playing();
    return () => {
      for (const f of off) f();
      this.tick(false);
      if (this.video === video) this.video = undefined;
    };
  }

  /** How it plays now. */
  mode(mode: BeaconBody["mode"]) {
    this.body.mode = mode;
  }

  /** An error the player met (its own name for it: "networkError", "mediaError", "notFound", ...). */
  error(type: string) {
    this.body.errorCount++;
    this.body.errorType = type.slice(0, 64);
    this.intent();
    this.send("error");
  }

  /** The view is over (the player closed, or moved to other content): the last beacon, by sendBeacon. */
  end() {
    if (this.body.ended) return;
    this.tick(false);
    this.endStall();
    clearInterval(this.heartbeat);
    if (this.started) this.send("exit", true, true);
    this.body.ended = true;
    for (const f of this.detach.splice(0)) f();
  }

  private intent() {
    this.intentAt ??= performance.now();
    if (this.started) return;
    this.started = true;
    this.send("start");
    this.heartbeat = setInterval(() => this.send("heartbeat"), HEARTBEAT_MS);
  }

  private playing() {
    this.intent();
    if (this.body.ttffMs === undefined) {
      this.body.ttffMs = Math.round(performance.now() - (this.intentAt ?? performance.now()));
      this.body.height = this.video?.videoHeight || undefined;
      this.send("firstFrame");
    }
    if (this.endStall()) this.send("rebuffer");
    this.playingSince = performance.now();
  }

  private waiting() {
    this.tick(false);
    // A stall after the first frame, not a seek's wait, is rebuffering.
    if (this.body.ttffMs !== undefined && !this.video?.seeking) this.stalledAt ??= performance.now();
  }

  private endStall(): boolean {
    if (this.stalledAt === undefined) return false;
    this.body.rebufferCount++;
    this.body.rebufferMs += Math.round(performance.now() - this.stalledAt);
    this.stalledAt = undefined;
    return true;
  }

  /** Adds the time played since the last tick; `goesOn`: still playing from now. */
  private tick(goesOn: boolean) {
    const now = performance.now();
    if (this.playingSince !== undefined) this.body.playedMs += Math.round(now - this.playingSince);
    this.playingSince = goesOn ? now : undefined;
  }

  private resized() {
    const height = this.video?.videoHeight;
    if (!height || height === this.body.height) return;
    if (this.body.height !== undefined) this.body.qualityChanges++;
    this.body.height = height;
  }

  private send(event: BeaconBody["event"], leaving = false, last = false) {
    if (this.body.ended) return;
    this.tick(!last && this.playingSince !== undefined);
    const stalled = this.stalledAt === undefined ? 0 : Math.round(performance.now() - this.stalledAt);
    const body = JSON.stringify({ ...this.body, event, rebufferMs: this.body.rebufferMs + stalled, ended: last });
    // text/plain: no CORS preflight, and what sendBeacon may send to another origin.
    if (leaving && navigator.sendBeacon?.(this.endpoint, new Blob([body], { type: "text/plain" }))) return;
    void fetch(this.endpoint, { method: "POST", body, keepalive: true, headers: { "content-type": "text/plain" } }).catch(() => {});
  }
}
