import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { after, before, test } from "node:test";
import { Inngest, NonRetriableError, RetryAfterError, type InngestFunction, eventType } from "inngest";
import { closeDb, db } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { startJobDriver, type JobDriverOptions } from "@/lib/jobs/driver";
import { emit, emitEach } from "@/lib/jobs/emit";
import { createStepLog, workerFunctions } from "../support/job-functions";

/**
 * The built-in job driver against the real database: each test defines its own
 * functions on a test app and triggers them with event names no other test uses.
 */
const suffix = randomUUID().slice(0, 8);
const client = new Inngest({ id: "castline-test-jobs" });
const eventName = (label: string) => `test.jobs.${label}.${suffix}`;
const fnId = (label: string) => `${label}-${suffix}`;
const sql = () => db().$client;

before(async () => {
  await setupDatabase();
  await createStepLog();
});

after(async () => {
  await sql()`DELETE FROM job_events WHERE name LIKE ${`test.jobs.%.${suffix}`} OR data->'event'->>'name' LIKE ${`test.jobs.%.${suffix}`}`;
  await sql()`DELETE FROM job_functions WHERE app_id IN ('castline-test-jobs', 'castline-test-workers')`;
  await sql()`DROP TABLE IF EXISTS job_test_steps`;
  await closeDb();
});

interface RunRow {
  status: string;
  output: unknown;
  error: { name?: string; message?: string } | null;
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until `count` runs triggered by the event have completed or failed. */
function finishedRuns(event: string, count: number, timeoutMs?: number): Promise<RunRow[]> {
  return until(
    `${count} finished run(s) of ${event}`,
    async () => {
      const rows = await sql()<RunRow[]>`
      SELECT r.status, r.output, r.error FROM job_runs r JOIN job_events e ON e.id = r.event_id
      WHERE e.name = ${event} AND r.status <> 'pending'`;
      return rows.length >= count ? rows : undefined;
    },
    timeoutMs,
  );
}

async function withDriver(functions: InngestFunction.Any[], options: Partial<JobDriverOptions>, body: () => Promise<void>) {
  const driver = await startJobDriver({ client, functions, retryBaseMs: 200, ...options });
  try {
    await body();
  } finally {
    await driver.stop();
  }
}

for (const checkpointing of [true, false]) {
  // With checkpointing (the SDK's default) one call runs consecutive steps; without, each step is a call.
  test(`step results are memoised: each step's side effect happens once (checkpointing ${checkpointing ? "on" : "off"})`, async () => {
    const label = `memo-${checkpointing}`;
    const event = eventName(label);
    const effects = { a: 0, b: 0, x: 0, y: 0 };
    let entries = 0;
    const fn = client.createFunction({ id: fnId(label), checkpointing, triggers: [{ event }] }, async ({ step }) => {
      entries++;
      const a = await step.run("a", () => ++effects.a);
      const b = await step.run("b", () => a + ++effects.b);
      const [x, y] = await Promise.all([step.run("x", () => ++effects.x), step.run("y", () => ++effects.y * 10)]);
      return { a, b, x, y };
    });
    await withDriver([fn], {}, async () => {
      await emit(eventType(event), {});
      const [run] = await finishedRuns(event, 1);
      assert.equal(run.status, "completed");
      assert.deepEqual(run.output, { a: 1, b: 2, x: 1, y: 10 });
    });
    assert.deepEqual(effects, { a: 1, b: 1, x: 1, y: 1 });
    assert.ok(entries >= (checkpointing ? 4 : 6), `the function was entered ${entries} times`);
  });
}

test("step.sleep resumes the run after the sleep", async () => {
  const event = eventName("sleep");
  const fn = client.createFunction({ id: fnId("sleep"), triggers: [{ event }] }, async ({ step }) => {
    const before = await step.run("before", () => Date.now());
    await step.sleep("nap", "1s");
    const after = await step.run("after", () => Date.now());
    return after - before;
  });
  await withDriver([fn], {}, async () => {
    await emit(eventType(event), {});
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "completed");
    const slept = run.output as number;
    assert.ok(slept >= 1_000 && slept < 2_500, `slept ${slept} ms`);
  });
});

test("a failing step is retried with growing back-off until it succeeds", async () => {
  const event = eventName("flaky");
  const tries: number[] = [];
  const fn = client.createFunction({ id: fnId("flaky"), retries: 3, triggers: [{ event }] }, async ({ step }) => {
    return step.run("flaky", () => {
      tries.push(Date.now());
      if (tries.length < 3) throw new Error(`flaky on try ${tries.length}`);
      return "ok";
    });
  });
  await withDriver([fn], { retryBaseMs: 300 }, async () => {
    await emit(eventType(event), {});
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "completed");
    assert.equal(run.output, "ok");
  });
  assert.equal(tries.length, 3);
  const [first, second] = [tries[1] - tries[0], tries[2] - tries[1]];
  // Jittered between half and all of 300 ms, then of 600 ms.
  assert.ok(first >= 150 && second >= 300, `back-offs of ${first} and ${second} ms`);
});

test("RetryAfterError's delay replaces the back-off", async () => {
  const event = eventName("later");
  const tries: number[] = [];
  const fn = client.createFunction({ id: fnId("later"), retries: 1, triggers: [{ event }] }, async ({ step }) => {
    await step.run("busy", () => {
      tries.push(Date.now());
      if (tries.length === 1) throw new RetryAfterError("rate limited", "2s");
    });
  });
  await withDriver([fn], { retryBaseMs: 50 }, async () => {
    await emit(eventType(event), {});
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "completed");
  });
  assert.equal(tries.length, 2);
  assert.ok(tries[1] - tries[0] >= 1_900, `retried after ${tries[1] - tries[0]} ms`);
});

test("NonRetriableError fails the run at once and runs onFailure", async () => {
  const event = eventName("fatal");
  let tries = 0;
  const failures: { message: string; data: unknown }[] = [];
  const fn = client.createFunction(
    {
      id: fnId("fatal"),
      retries: 3,
      triggers: [{ event }],
      onFailure: async ({ error, event: failed }) => {
        failures.push({ message: error.message, data: failed.data.event.data });
      },
    },
    async ({ step }) => {
      await step.run("fatal", () => {
        tries++;
        throw new NonRetriableError("the target is gone");
      });
    },
  );
  await withDriver([fn], {}, async () => {
    await emit(eventType(event), { target: 42 });
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "failed");
    assert.equal(run.error?.message, "the target is gone");
    await until("the onFailure handler", () => failures.length > 0 || undefined);
    await new Promise((resolve) => setTimeout(resolve, 500)); // time for a wrong retry to show
  });
  assert.equal(tries, 1);
  assert.deepEqual(failures, [{ message: "the target is gone", data: { target: 42 } }]);
});

test("a step that keeps failing exhausts its retries and fails the run", async () => {
  const event = eventName("down");
  let tries = 0;
  const fn = client.createFunction({ id: fnId("down"), retries: 2, triggers: [{ event }] }, async ({ step }) => {
    await step.run("call", () => {
      tries++;
      throw new Error("the service is down");
    });
  });
  await withDriver([fn], { retryBaseMs: 100 }, async () => {
    await emit(eventType(event), {});
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "failed");
    assert.match(run.error?.message ?? "", /the service is down/);
  });
  assert.equal(tries, 3);
});

test("step.sendEvent starts the functions its event triggers", async () => {
  const [order, delivery] = [eventName("order"), eventName("delivery")];
  const delivered: unknown[] = [];
  const sender = client.createFunction({ id: fnId("sender"), triggers: [{ event: order }] }, async ({ event, step }) => {
    await step.sendEvent("ask for delivery", { name: delivery, data: { order: event.data.order } });
  });
  const receiver = client.createFunction({ id: fnId("receiver"), triggers: [{ event: delivery }] }, async ({ event }) => {
    delivered.push(event.data);
  });
  await withDriver([sender, receiver], {}, async () => {
    await emit(eventType(order), { order: 7 });
    await finishedRuns(delivery, 1);
  });
  assert.deepEqual(delivered, [{ order: 7 }]);
});

test("ops the driver does not implement fail the run, and unsupported options refuse to start", async () => {
  const event = eventName("unsupported");
  const waits = client.createFunction({ id: fnId("unsupported"), triggers: [{ event }] }, async ({ step }) => {
    await step.waitForEvent("approval", { event: "test.jobs.never", timeout: "1h" });
  });
  await withDriver([waits], {}, async () => {
    await emit(eventType(event), {});
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "failed");
    assert.match(run.error?.message ?? "", /WaitForEvent is not supported/);
  });

  const cron = client.createFunction({ id: fnId("cron"), triggers: [{ cron: "0 * * * *" }] }, async () => {});
  await assert.rejects(startJobDriver({ client, functions: [cron] }), /uses a cron trigger/);
});

test("a concurrency key with limit 1 serialises the runs of each key, not of the function", async () => {
  const event = eventName("keyed");
  const spans: { key: string; start: number; end: number }[] = [];
  const fn = client.createFunction(
    { id: fnId("keyed"), concurrency: { limit: 1, key: "event.data.webhookId" }, triggers: [{ event }] },
    async ({ event: e, step }) => {
      await step.run("deliver", async () => {
        const start = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 150));
        spans.push({ key: e.data.webhookId, start, end: Date.now() });
      });
    },
  );
  await withDriver([fn], {}, async () => {
    await emitEach(
      eventType(event),
      ["a", "b", "a", "b", "a", "b"].map((webhookId) => ({ data: { webhookId } })),
    );
    await finishedRuns(event, 6);
  });
  const overlap = (x: (typeof spans)[number], y: (typeof spans)[number]) => x.start < y.end && y.start < x.end;
  for (const x of spans) {
    for (const y of spans) {
      if (x !== y && x.key === y.key) assert.ok(!overlap(x, y), `two runs of key ${x.key} overlapped`);
    }
  }
  assert.ok(
    spans.some((x) => spans.some((y) => x.key !== y.key && overlap(x, y))),
    "different keys never ran together",
  );
});

test("a run sleeping when its driver stops is finished by the next driver", async () => {
  const event = eventName("restart");
  const counts = { before: 0, after: 0 };
  const fn = client.createFunction({ id: fnId("restart"), triggers: [{ event }] }, async ({ step }) => {
    await step.run("before", () => counts.before++);
    await step.sleep("nap", "2s");
    await step.run("after", () => counts.after++);
  });
  const first = await startJobDriver({ client, functions: [fn] });
  await emit(eventType(event), {});
  await until("the first step", () => counts.before > 0 || undefined);
  await first.stop();

  await withDriver([fn], {}, async () => {
    const [run] = await finishedRuns(event, 1);
    assert.equal(run.status, "completed");
  });
  assert.deepEqual(counts, { before: 1, after: 1 });
});

/** Starts a driver in another process with the functions of support/job-functions.ts. */
async function startWorker(leaseMs?: number): Promise<ChildProcess> {
  const script = path.join(process.cwd(), "test/support/jobs-worker.ts");
  const args = ["--import", "tsx", script, suffix, ...(leaseMs ? [String(leaseMs)] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`the worker exited with ${code} before it was ready`)));
  });
  return child;
}

async function stopWorker(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

async function stepLog(eventIds: string[]) {
  return sql()<{ event_id: string; step: string; pid: number; at: string }[]>`
    SELECT event_id, step, pid, at FROM job_test_steps WHERE event_id = ANY(${eventIds}::text[]) ORDER BY at`;
}

test("two processes on one database run every step exactly once", async () => {
  const { pairEvent } = workerFunctions(suffix);
  const workers = await Promise.all([startWorker(), startWorker()]);
  try {
    const ids = await emitEach(
      eventType(pairEvent),
      Array.from({ length: 100 }, (_, i) => ({ data: { i } })),
    );
    await finishedRuns(pairEvent, 100, 30_000);
    const log = await stepLog(ids);
    const executions = new Map<string, number>();
    for (const row of log) executions.set(`${row.event_id}/${row.step}`, (executions.get(`${row.event_id}/${row.step}`) ?? 0) + 1);
    assert.equal(executions.size, 200);
    assert.ok(
      [...executions.values()].every((n) => n === 1),
      "a step ran more than once",
    );
    assert.deepEqual(new Set(log.map((r) => r.pid)), new Set(workers.map((w) => w.pid)), "both processes took runs");
  } finally {
    await Promise.all(workers.map((w) => stopWorker(w)));
  }
});

test("a run whose process was killed mid-step is taken over when its lease runs out", async () => {
  const { client: workersClient, functions, slowEvent } = workerFunctions(suffix);
  const leaseMs = 1_500;
  const worker = await startWorker(leaseMs);
  const id = await emit(eventType(slowEvent), {});
  await until("the slow step to start", async () => (await stepLog([id])).length > 0 || undefined);
  await stopWorker(worker, "SIGKILL");
  const [{ locked_until: leaseEnd }] = await sql()<{ locked_until: string }[]>`SELECT locked_until FROM job_runs WHERE event_id = ${id}`;

  const driver = await startJobDriver({ client: workersClient, functions, leaseMs, pollMs: 500 });
  try {
    const [run] = await finishedRuns(slowEvent, 1);
    assert.equal(run.status, "completed");
  } finally {
    await driver.stop();
  }
  const log = await stepLog([id]);
  assert.deepEqual(
    log.map((r) => r.step),
    ["slow-start", "slow-start", "after"],
  );
  assert.ok(Number(log[1].at) >= Number(leaseEnd), "taken over before the lease ran out");
});
