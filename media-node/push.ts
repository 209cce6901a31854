import { runFfmpeg, type FfmpegProcess } from "@/lib/av/ffmpeg";
import type { LiveTarget, MultistreamPushState, PublishGrant } from "@/lib/media-node-protocol";
import { redactTargetSecrets, routeToTarget, splitTargetUrl, type TargetRoute } from "@/lib/targets/connect";
import type { AppClient } from "./app-client";

/** A push that sends nothing this long after it started is given up (and retried): ffmpeg waits forever on a silent server. */
const PUSH_CONNECT_TIMEOUT_MS = 10_000;

/** What a push needs of the broadcast it sends (media-node/broadcast.ts). */
export interface PushedBroadcast {
  readonly grant: PublishGrant;
  /** The broadcast is ending: no new attempt. */
  readonly isEnding: boolean;
  nextMultistreamSeq(): number;
  pushArgsFor(target: LiveTarget, route: TargetRoute): string[];
}

/** Where a push reports: the app, and the node's metrics. */
export interface PushContext {
  app: AppClient;
  observe?: { ffmpegRestarted(role: "push"): void };
}

/**
 * One multistream target: an ffmpeg push retried with back-off while the
 * broadcast lasts; connecting/connected/error (with the next attempt's
 * delay)/disconnected reported to the app. Every
 * attempt resolves and checks the target's host first (a DNS name can change)
 * and ffmpeg connects to the checked address only; a private one is reported
 * as the error and not connected to.
 */
export class Push {
  private proc?: FfmpegProcess;
  private route?: TargetRoute;
  private stopped = false;
  private connected = false;
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private deadline?: NodeJS.Timeout;

  constructor(
    private readonly target: LiveTarget,
    private readonly broadcast: PushedBroadcast,
    private readonly ctx: PushContext,
  ) {}

  private report(state: MultistreamPushState, failure?: { error: string; retryInMs: number }) {
    const { sessionId, epoch } = this.broadcast.grant;
    void this.ctx.app
      .event({ kind: "multistream", sessionId, epoch, targetId: this.target.id, state, seq: this.broadcast.nextMultistreamSeq(), ...failure })
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
    this.report("connecting");
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
        // Once per connection. A push being stopped (the end of the broadcast) still writes its
        // last progress as it exits: that is no new connection.
        if (this.over || proc !== this.proc) return;
        if (!this.connected && Number(p.out_time_us ?? 0) > 0) {
          clearTimeout(this.deadline);
          this.connected = true;
          this.failures = 0;
          this.report("connected");
        }
      },
    });
    this.proc = proc;
    let timedOut = false;
    this.deadline = setTimeout(() => {
      timedOut = true;
      void proc.stop();
    }, PUSH_CONNECT_TIMEOUT_MS);
    void proc.exited.then((code) => {
      clearTimeout(this.deadline);
      void route.close();
      if (this.over) return;
      // Its last two lines, without ffmpeg's "[rtmp @ 0x55…] " context prefixes (noise to a creator).
      const said = proc
        .stderrTail()
        .split("\n")
        .map((line) => line.replace(/^\[[^\]]* @ 0x[0-9a-f]+\]\s*/, "").trim())
        .filter(Boolean)
        .slice(-2)
        .join("; ");
      const silent = `no answer from ${splitTargetUrl(this.target.url).host} within ${PUSH_CONNECT_TIMEOUT_MS / 1000} s`;
      this.failed(route.failure() ?? (timedOut ? silent : said || `ffmpeg exited with ${code}`));
    });
  }

  private failed(message: string) {
    if (this.over) return;
    this.ctx.observe?.ffmpegRestarted("push");
    if (this.connected) this.report("disconnected");
    this.connected = false;
    const delay = Math.min(2000 * 2 ** this.failures++, 30_000);
    this.report("error", { error: redactTargetSecrets(message, this.target.url), retryInMs: delay });
    this.retry = setTimeout(() => void this.attempt(), delay);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.deadline);
    // Reported first: a push replacing this one (its target changed) reports after it.
    if (this.connected) this.report("disconnected");
    this.connected = false;
    await this.proc?.stop();
    await this.route?.close();
  }
}
