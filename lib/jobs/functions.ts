import type { Inngest, InngestFunction } from "inngest";

/** What the built-in driver needs to know about a function, read from its options. */
export interface FunctionSpec {
  /** "<app id>-<function id>": the fnId the serve handler routes by. */
  id: string;
  events: string[];
  maxAttempts: number;
  concurrency: { limit: number; keyPath: string[] | null } | null;
  /** Id of the onFailure handler, which the SDK serves as a function of its own. */
  failureId: string | null;
}

/** Inngest's documented default when a function sets no `retries`. */
const DEFAULT_RETRIES = 4;
/** The SDK registers onFailure handlers with this many retries. */
const FAILURE_HANDLER_RETRIES = 1;

/** Options an Inngest server honours that this driver would silently get wrong. */
const UNSUPPORTED_OPTIONS = ["batchEvents", "cancelOn", "debounce", "idempotency", "priority", "rateLimit", "singleton", "throttle", "timeouts"] as const;

/**
 * Reads each function's config in-process (fn.opts, as the SDK's sync would report it)
 * and refuses what the driver does not implement, so a function never runs with
 * different semantics than under an Inngest server.
 */
export function describeFunctions(client: Inngest.Any, functions: InngestFunction.Any[]): FunctionSpec[] {
  const specs: FunctionSpec[] = [];
  for (const fn of functions) {
    const id = fn.id(client.id);
    const refuse = (what: string) => {
      throw new Error(
        `Function "${id}" uses ${what}, which the built-in job driver does not support; ` +
          "run an Inngest server (INNGEST_DEV or INNGEST_BASE_URL) or drop the option",
      );
    };
    const opts = fn.opts as InngestFunction.Options & Record<string, unknown>;
    for (const option of UNSUPPORTED_OPTIONS) if (opts[option] !== undefined) refuse(`\`${option}\``);

    const events: string[] = [];
    for (const trigger of opts.triggers ?? []) {
      if (trigger.cron) refuse("a cron trigger");
      if (trigger.if) refuse("a trigger expression (`if`)");
      if (trigger.event) events.push(typeof trigger.event === "string" ? trigger.event : trigger.event.name);
    }
    specs.push({
      id,
      events,
      maxAttempts: (opts.retries ?? DEFAULT_RETRIES) + 1,
      concurrency: concurrencyOf(opts.concurrency, refuse),
      failureId: opts.onFailure ? `${id}-failure` : null,
    });
    if (opts.onFailure) {
      specs.push({
        id: `${id}-failure`,
        events: [],
        maxAttempts: FAILURE_HANDLER_RETRIES + 1,
        concurrency: null,
        failureId: null,
      });
    }
  }
  return specs;
}

/** Supports one limit per function, optionally keyed by `event.data.<path>`. */
function concurrencyOf(option: InngestFunction.Options["concurrency"], refuse: (what: string) => never) {
  if (option === undefined) return null;
  const list = Array.isArray(option) ? option : [option];
  if (list.length > 1) refuse("more than one concurrency limit");
  const one = typeof list[0] === "number" ? { limit: list[0] } : list[0];
  if (one.scope && one.scope !== "fn") refuse(`concurrency scope "${one.scope}"`);
  if (!one.limit) return null; // 0 means no limit
  if (!one.key) return { limit: one.limit, keyPath: null };
  const path = /^event\.data((?:\.[A-Za-z_$][\w$]*)+)$/.exec(one.key.trim());
  if (!path) refuse(`the concurrency key "${one.key}" (only event.data.<path> is supported)`);
  return { limit: one.limit, keyPath: path[1].slice(1).split(".") };
}
