import type { Run } from "./store";

/**
 * The executor's side of the Inngest execution protocol, as an Inngest server speaks
 * it to a serve handler: what to send for a run, and how each answer moves the run
 * on. Checked against the inngest 4.24.0 SDK; a new SDK major needs re-checking.
 */

/** What the driver does after a call: call again (or wait for next_run_at), or end the run. */
export type Outcome = { kind: "continue" } | { kind: "complete"; output: unknown } | { kind: "fail"; error: unknown };

/** A function's attempts per step, and the wait before each retry. */
export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: (attempt: number) => number;
}

export interface SdkResponse {
  status: number;
  headers: Headers;
  body: string;
}

export interface Op {
  id: string;
  op: string;
  name?: string;
  displayName?: string;
  data?: unknown;
  error?: unknown;
}

/** The serve handler is called in-process; the origin only has to parse (and needs a host header). */
const ORIGIN = "http://castline-jobs.internal";

/**
 * The call for the run's next move: the first planned step if there is one, else a
 * discovery call ("step") that runs the function until it finds new steps.
 * `fn_id` and `qi_id` turn on the SDK's checkpointing, as on Inngest Cloud: it runs
 * consecutive steps within one call and POSTs each result to the checkpoint API
 * (which the driver serves in-process) before going on. `use_api: false` makes the SDK
 * take the run's state from this body.
 */
export function requestFor(run: Run, maxAttempts: number): Request {
  const url = new URL("/api/inngest", ORIGIN);
  url.searchParams.set("fnId", run.functionId);
  url.searchParams.set("stepId", run.planned[0] ?? "step");
  const body = {
    event: run.event,
    events: [run.event],
    steps: run.steps,
    ctx: {
      run_id: run.id,
      fn_id: run.functionId,
      qi_id: run.id,
      attempt: run.attempt,
      max_attempts: maxAttempts,
      disable_immediate_execution: run.parallel,
      use_api: false,
      stack: { stack: run.stack, current: run.stack.length },
    },
  };
  return new Request(url, {
    method: "POST",
    headers: { host: url.host, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Applies the SDK's answer to the run. Step results are memoised, planned steps
 * queued, a sleep sets next_run_at; a retriable error bumps the attempt and sets
 * next_run_at to the back-off (or the SDK's retry-after).
 */
export function advance(run: Run, res: SdkResponse, policy: RetryPolicy): Outcome {
  const retryAfter = res.headers.get("retry-after");
  if (res.status === 200) return { kind: "complete", output: parseJson(res.body) };
  if (res.status === 206) return applyOps(run, parseJson(res.body) as Op[], policy, retryAfter);
  const error = errorFrom(res.body);
  const final = res.headers.get("x-inngest-no-retry") === "true" || run.attempt + 1 >= policy.maxAttempts;
  return final ? { kind: "fail", error } : retry(run, policy, retryAfter);
}

/** Applies the ops of a 206 answer, or of a checkpoint (steps run within one call). */
export function applyOps(run: Run, ops: Op[], policy: RetryPolicy, retryAfter: string | null = null): Outcome {
  // Parallel steps: from now on the SDK must plan every step rather than run it at once.
  if (ops.filter((op) => op.op !== "StepRun" && op.op !== "RunComplete").length > 1) run.parallel = true;
  for (const op of ops) {
    switch (op.op) {
      case "StepRun":
        memoise(run, op.id, { data: op.data ?? null });
        break;
      case "StepFailed": // op.data is only a stub here; the error is what the function must see
        memoise(run, op.id, { error: op.error });
        break;
      case "StepError":
        // The SDK marks the last attempt StepFailed itself; this only guards the count.
        if (run.attempt + 1 >= policy.maxAttempts) memoise(run, op.id, { error: op.error });
        else return retry(run, policy, retryAfter);
        break;
      case "Sleep": {
        const end = sleepEnd(op.name ?? "");
        if (Number.isNaN(end)) return refuse(op, `it sleeps for "${op.name}", which it cannot read`);
        memoise(run, op.id, { data: null });
        run.nextRunAt = Math.max(run.nextRunAt, end);
        break;
      }
      case "StepPlanned":
        if (!(op.id in run.steps) && !run.planned.includes(op.id)) run.planned.push(op.id);
        break;
      case "RunComplete":
        return { kind: "complete", output: op.data ?? null };
      default:
        return refuse(op, `${op.op} is not supported by it; use an Inngest server`);
    }
  }
  return { kind: "continue" };
}

/** Fails the run at once: retrying would meet the same op again. */
function refuse(op: Op, why: string): Outcome {
  const message = `Castline's built-in job driver cannot run step "${op.displayName ?? op.name}": ${why}`;
  return { kind: "fail", error: { name: "NonRetriableError", message } };
}

function memoise(run: Run, stepId: string, result: Run["steps"][string]) {
  if (!(stepId in run.steps)) run.stack.push(stepId);
  run.steps[stepId] = result;
  run.planned = run.planned.filter((id) => id !== stepId);
  run.attempt = 0;
}

/** Repeats the same call later with the next attempt number. */
function retry(run: Run, policy: RetryPolicy, retryAfter: string | null): Outcome {
  run.attempt += 1;
  run.nextRunAt = Math.round(retryAt(retryAfter) ?? Date.now() + policy.backoffMs(run.attempt));
  return { kind: "continue" };
}

/** `retry-after` is in seconds, or a date (RetryAfterError with a Date). */
function retryAt(header: string | null): number | null {
  if (!header) return null;
  const at = /^\d+$/.test(header) ? Date.now() + Number(header) * 1000 : Date.parse(header);
  return Number.isNaN(at) ? null : at;
}

/**
 * A Sleep op's name is its duration ("1m30s", as the SDK writes it) or, for
 * sleepUntil, a date. NaN if it is neither.
 */
function sleepEnd(name: string): number {
  const parts = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(name);
  if (!parts) return Date.parse(name);
  const [w, d, h, m, s] = parts.slice(1).map((p) => Number(p ?? 0));
  return Date.now() + ((((w * 7 + d) * 24 + h) * 60 + m) * 60 + s) * 1000;
}

function parseJson(text: string): unknown {
  return text ? JSON.parse(text) : null;
}

/** Error bodies are the SDK's serialised errors; anything else is wrapped as one. */
function errorFrom(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return { name: "Error", message: body || "empty response from the serve handler" };
  }
}
