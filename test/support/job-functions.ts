import { Inngest } from "inngest";
import { db } from "@/db/client";

/**
 * Functions shared by the job driver tests and their worker processes, which must
 * define them identically. Each step records its execution in job_test_steps so the
 * tests can count executions across processes.
 */
export async function createStepLog() {
  await db().$client`CREATE TABLE IF NOT EXISTS job_test_steps (event_id text NOT NULL, step text NOT NULL, pid int NOT NULL, at bigint NOT NULL)`;
}

async function recordStep(eventId: string, step: string) {
  await db().$client`INSERT INTO job_test_steps VALUES (${eventId}, ${step}, ${process.pid}, ${Date.now()})`;
}

/** `suffix` keeps one test run's event names apart from any other's. */
export function workerFunctions(suffix: string) {
  const client = new Inngest({ id: "castline-test-workers" });
  const pairEvent = `test.jobs.pair.${suffix}`;
  const slowEvent = `test.jobs.slow.${suffix}`;
  const pair = client.createFunction({ id: `pair-${suffix}`, triggers: [{ event: pairEvent }] }, async ({ event, step }) => {
    await step.run("a", () => recordStep(event.id!, "a"));
    await step.run("b", () => recordStep(event.id!, "b"));
  });
  const slow = client.createFunction({ id: `slow-${suffix}`, triggers: [{ event: slowEvent }] }, async ({ event, step }) => {
    await step.run("slow", async () => {
      await recordStep(event.id!, "slow-start");
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    });
    await step.run("after", () => recordStep(event.id!, "after"));
  });
  return { client, functions: [pair, slow], pairEvent, slowEvent };
}
