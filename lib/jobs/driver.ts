import os from "node:os";
import { Inngest, type InngestFunction } from "inngest";
import { serve } from "inngest/edge";
import { newId } from "@/lib/ids";
import { describeFunctions, type FunctionSpec } from "./functions";
import { advance, applyOps, requestFor, type Op, type Outcome, type RetryPolicy, type SdkResponse } from "./protocol";
import { claimRuns, finishRun, insertEvents, listenForWork, nextDueAt, purgeFinished, renewLeases, saveRun, syncFunctions, type Run } from "./store";

/*
 * The built-in stand-in for an Inngest server: it runs the app's Inngest functions
 * from runs stored in PostgreSQL, calling the SDK's own serve handler in-process, as
 * an Inngest server would call /api/inngest.
 *
 * Emitted events NOTIFY every driver; each claims due runs (FOR UPDATE SKIP LOCKED)
 * under a lease it renews while it drives them, and writes each step's result before
 * going on. A crashed process's runs are claimed again when their lease runs out;
 * sleeps and retries come back through next_run_at, and a timer or the slow poll.
 */

export interface JobDriverOptions {
  functions: InngestFunction.Any[];
  client: Inngest.Any;
  /** Runs this process drives at once (default 16). */
  concurrency?: number;
  /**
   * Runs of these functions this process drives at once, within `concurrency`: work
   * bound by this machine's cores (transcoding) is left to other workers rather than
   * claimed and queued here. A function limit is asked before each claim (it may change
   * with what else the machine runs).
   */
  perProcess?: { fn: InngestFunction.Any; limit: number | (() => Promise<number>) }[];
  /** Back-off before the first retry, doubled for each further one (default 10 s). */
  retryBaseMs?: number;
  /** How long a claimed run stays reserved to this process without renewal (default 30 s). */
  leaseMs?: number;
  /** Polling interval, a fallback for missed notifications (default 5 s). */
  pollMs?: number;
  /**
   * How long finished runs and their events are kept (default 7 days). Event data can
   * hold what users sent; it is not kept for ever.
   */
  retentionMs?: number;
}

export interface JobDriver {
  /** Finishes the calls in flight, hands their runs back and stops claiming. */
  stop(): Promise<void>;
}

const MAX_BACKOFF_MS = 60 * 60_000;
const MAX_PURGE_INTERVAL_MS = 60 * 60_000;

export async function startJobDriver(options: JobDriverOptions): Promise<JobDriver> {
  const driver = new Driver(options);
  await driver.start();
  return driver;
}

class Driver implements JobDriver {
  private readonly owner = `${os.hostname()}/${process.pid}/${newId().slice(0, 8)}`;
  private readonly specs: Map<string, FunctionSpec>;
  private readonly handler: (req: Request) => Promise<Response>;
  private readonly concurrency: number;
  private readonly retryBaseMs: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly retentionMs: number;
  /** Per-process limits by function id (options.perProcess). */
  private readonly perProcess: Map<string, number | (() => Promise<number>)>;

  /** Runs this process is driving, by id, and the promises of their drive loops. */
  private readonly driving = new Map<string, Run>();
  private readonly workers = new Set<Promise<void>>();
  /** A checkpoint that could not be taken ends the call with this outcome. */
  private readonly refusedCheckpoints = new Map<string, Outcome>();
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private stopping = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly options: JobDriverOptions) {
    this.specs = new Map(describeFunctions(options.client, options.functions).map((s) => [s.id, s]));
    this.handler = serve({ client: inProcessClient(options.client, this.inngestApi), functions: options.functions });
    this.concurrency = options.concurrency ?? 16;
    this.retryBaseMs = options.retryBaseMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 5_000;
    this.retentionMs = options.retentionMs ?? 7 * 86_400_000;
    this.perProcess = new Map((options.perProcess ?? []).map(({ fn, limit }) => [fn.id(options.client.id), limit]));
  }

  async start() {
    await syncFunctions(this.options.client.id, [...this.specs.values()]);
    this.unlisten = await listenForWork(() => this.pump());
    this.leaseTimer = setInterval(() => void this.renewLeases(), this.leaseMs / 3);
    // Every driver purges; the DELETE is idempotent, so several processes need no coordination.
    this.purgeTimer = setInterval(() => void this.purge(), Math.min(this.retentionMs, MAX_PURGE_INTERVAL_MS));
    void this.purge();
    this.pump();
  }

  private async purge() {
    try {
      await purgeFinished(Date.now() - this.retentionMs);
    } catch (err) {
      console.error("[jobs] purging finished runs failed:", err);
    }
  }

  async stop() {
    this.stopping = true;
    clearTimeout(this.wakeTimer);
    clearInterval(this.leaseTimer);
    clearInterval(this.purgeTimer);
    await this.unlisten?.();
    await this.pumping;
    await Promise.all(this.workers);
  }

  /** Claims due runs while there is room; one pump at a time, repeated if woken meanwhile. */
  private pump() {
    if (this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumpAgain = false;
    this.pumping = this.claimAndSchedule().finally(() => {
      this.pumping = undefined;
      if (this.pumpAgain) this.pump();
    });
  }

  private async claimAndSchedule() {
    clearTimeout(this.wakeTimer);
    let wakeAt: number | null = null;
    try {
      let claimed = 0;
      let more = true;
      let lookedAt = Date.now();
      while (more && !this.stopping && this.driving.size < this.concurrency) {
        claimed = 0;
        more = false;
        for (const { functionIds, limit } of await this.claimable()) {
          const claim = await claimRuns({ owner: this.owner, functionIds, limit, leaseMs: this.leaseMs });
          for (const run of claim.runs) this.startDriving(run);
          claimed += claim.runs.length;
          lookedAt = claim.now;
          more ||= claim.more && claim.runs.length > 0;
        }
      }
      // While runs come, each finishing one pumps again; once none is due, sleep until one falls due.
      if (claimed === 0) wakeAt = await nextDueAt([...this.specs.keys()], lookedAt);
    } catch (err) {
      console.error("[jobs] claiming runs failed:", err);
    }
    if (this.stopping) return;
    const delay = wakeAt === null ? this.pollMs : Math.min(Math.max(wakeAt - Date.now(), 0), this.pollMs);
    this.wakeTimer = setTimeout(() => this.pump(), delay);
  }

  /**
   * What may be claimed now, as separate claims: the functions without a per-process
   * limit up to the room left, and each limited one up to its own room.
   */
  private async claimable(): Promise<{ functionIds: string[]; limit: number }[]> {
    const room = this.concurrency - this.driving.size;
    const busy = new Map<string, number>();
    for (const run of this.driving.values()) busy.set(run.functionId, (busy.get(run.functionId) ?? 0) + 1);
    const free = [...this.specs.keys()].filter((id) => !this.perProcess.has(id));
    const claims = free.length ? [{ functionIds: free, limit: room }] : [];
    for (const [id, cap] of this.perProcess) {
      const limit = Math.min(room, (typeof cap === "number" ? cap : await cap()) - (busy.get(id) ?? 0));
      if (limit > 0 && this.specs.has(id)) claims.push({ functionIds: [id], limit });
    }
    return claims.filter((c) => c.limit > 0);
  }

  private startDriving(run: Run) {
    this.driving.set(run.id, run);
    const worker = this.drive(run).finally(() => {
      this.driving.delete(run.id);
      this.workers.delete(worker);
      this.pump();
    });
    this.workers.add(worker);
  }

  /**
   * Calls the function until the run ends, sleeps or backs off, saving the run after
   * every answer. Stops at once if the lease was lost to another process.
   */
  private async drive(run: Run) {
    const spec = this.specs.get(run.functionId)!;
    try {
      let holding = true;
      while (holding) {
        if (this.stopping) {
          await saveRun(run, this.owner, true);
          return;
        }
        const outcome = await this.call(run, spec);
        if (outcome.kind === "complete") {
          await finishRun(run, this.owner, { output: outcome.output }, null);
          return;
        }
        if (outcome.kind === "fail") {
          console.warn(`[jobs] run ${run.id} of ${run.functionId} failed:`, describe(outcome.error));
          await finishRun(run, this.owner, { error: outcome.error }, spec.failureId);
          return;
        }
        const waiting = run.planned.length === 0 && run.nextRunAt > Date.now();
        holding = (await saveRun(run, this.owner, waiting)) && !waiting;
      }
    } catch (err) {
      // Most likely the database: the lease runs out and the run is claimed again.
      console.error(`[jobs] driving run ${run.id} of ${run.functionId} failed:`, err);
    }
  }

  private async call(run: Run, spec: FunctionSpec): Promise<Outcome> {
    let res: SdkResponse;
    try {
      const response = await this.handler(requestFor(run, spec.maxAttempts));
      res = { status: response.status, headers: response.headers, body: await response.text() };
    } catch (err) {
      // The handler itself threw: a retriable error, as a 500 from it would be.
      const error = err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : { message: String(err) };
      res = { status: 500, headers: new Headers(), body: JSON.stringify(error) };
    }
    const refused = this.refusedCheckpoints.get(run.id);
    this.refusedCheckpoints.delete(run.id);
    return refused ?? advance(run, res, this.retryPolicy(spec));
  }

  private retryPolicy(spec: FunctionSpec): RetryPolicy {
    return { maxAttempts: spec.maxAttempts, backoffMs: (attempt) => this.backoffMs(attempt) };
  }

  /** Exponential back-off with jitter, so retries of many runs spread out. */
  private backoffMs(attempt: number) {
    const ceiling = Math.min(this.retryBaseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }

  /**
   * The in-process client's fetch, standing in for the Inngest APIs the SDK calls
   * during a call: a checkpoint (steps it ran within the call) is saved before the
   * function goes on, and step.sendEvent's events are queued as emit() queues them.
   */
  private readonly inngestApi = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const body = JSON.parse(String(init?.body ?? "null"));
    if (url.pathname.startsWith("/e/")) return Response.json({ ids: await insertEvents(body), status: 200 });

    const runId = /^\/v1\/checkpoint\/([^/]+)\/async$/.exec(url.pathname)?.[1];
    const run = runId && this.driving.get(decodeURIComponent(runId));
    if (!run) {
      return Response.json({ error: `${url.pathname} is not available under the built-in job driver` }, { status: 501 });
    }
    const outcome = applyOps(run, body.steps as Op[], this.retryPolicy(this.specs.get(run.functionId)!));
    if (outcome.kind !== "continue") this.refusedCheckpoints.set(run.id, outcome);
    else if (await saveRun(run, this.owner, false)) return Response.json({});
    // 409 makes the SDK stop the call: the run is another process's now, or must end.
    return new Response(null, { status: 409 });
  };

  /** Runs whose lease was lost anyway find out on their next write, which is refused. */
  private async renewLeases() {
    if (!this.driving.size) return;
    try {
      await renewLeases(this.owner, [...this.driving.keys()], this.leaseMs);
    } catch (err) {
      console.error("[jobs] renewing leases failed:", err);
    }
  }
}

/**
 * The client of the in-process serve handler: a copy of the app's client in dev mode,
 * with `inngestApi` as its fetch. Dev mode skips request signatures, which guard the
 * public /api/inngest endpoint; this handler is only reachable from this process.
 */
function inProcessClient(client: Inngest.Any, inngestApi: typeof fetch) {
  return new Inngest({ ...client["options"], isDev: true, fetch: inngestApi });
}

function describe(error: unknown) {
  const e = error as { name?: string; message?: string } | null;
  return e?.message ? `${e.name ?? "Error"}: ${e.message}` : JSON.stringify(error);
}
