import { and, eq, notInArray } from "drizzle-orm";
import { db, type Executor, type Written } from "@/db/client";
import { tasks } from "@/db/schema";
import { compact } from "@/lib/compact";
import { notFound } from "@/lib/errors";
import { pageOf, type Page } from "@/db/pagination";
import { newId } from "@/lib/ids";
import { notifyWebhooks } from "@/lib/webhooks/notify";
import type { WebhookEvent } from "@/lib/webhooks/events";
import type { Order, PageQuery } from "@/lib/api/list-query";
import type { Task, TaskFilter } from "./schema";

export type TaskRow = typeof tasks.$inferSelect;
type TaskPhase = Task["status"]["phase"];

export function serializeTask(row: TaskRow): Task {
  return compact({
    id: row.id,
    type: row.type as Task["type"],
    userId: row.userId,
    createdAt: row.createdAt,
    inputAssetId: row.inputAssetId,
    outputAssetId: row.outputAssetId,
    params: row.params,
    output: row.output,
    status: compact({
      phase: row.phase as TaskPhase,
      updatedAt: row.updatedAt,
      progress: row.progress,
      errorMessage: row.errorMessage,
    }),
  });
}

export interface TaskListOptions extends PageQuery {
  filters: TaskFilter[];
  order: Order;
}

export async function listTasks(userId: string, opts: TaskListOptions): Promise<Page<Task>> {
  const column = { type: tasks.type, "status.phase": tasks.phase, outputAssetId: tasks.outputAssetId } as const;
  const where = opts.filters.map((f) => eq(column[f.id], f.value));
  return pageOf(tasks, and(eq(tasks.userId, userId), ...where), opts, serializeTask, { order: opts.order, key: tasks.createdAt });
}

export async function getTask(userId: string, id: string): Promise<Task> {
  const row = await db().query.tasks.findFirst({ where: and(eq(tasks.id, id), eq(tasks.userId, userId)) });
  if (!row) throw notFound("task");
  return serializeTask(row);
}

/** A new pending task, announced as task.spawned. */
export async function spawnTask(
  values: Pick<TaskRow, "userId" | "type" | "params"> & Partial<Pick<TaskRow, "inputAssetId" | "outputAssetId">>,
): Promise<TaskRow> {
  const now = Date.now();
  const [row] = await db()
    .insert(tasks)
    .values({ id: newId(), phase: "pending", updatedAt: now, createdAt: now, ...values })
    .returning();
  await notifyWebhooks(row.userId, "task.spawned", { payload: { task: serializeTask(row) } });
  return row;
}

const PHASE_EVENTS: Partial<Record<TaskPhase, Extract<WebhookEvent, `task.${string}`>>> = {
  running: "task.updated",
  completed: "task.completed",
  failed: "task.failed",
};

export interface TaskChange {
  phase?: TaskPhase;
  progress?: number;
  errorMessage?: string;
  output?: Record<string, unknown>;
}

/** A task in one of these phases is over: nothing changes it again. */
const ENDED: string[] = ["completed", "failed", "cancelled"];

/**
 * Moves a task along. A phase change is announced to webhooks (progress alone is
 * not: it changes many times a second); a finished task stays finished.
 */
export async function updateTask(taskId: string, change: TaskChange): Promise<void> {
  await (await writeTaskChange(db(), taskId, change))?.announce();
}

/** updateTask's write, on `tx` (a caller's transaction, so it commits with other writes); the caller announces it after. */
export async function writeTaskChange(tx: Executor, taskId: string, change: TaskChange): Promise<Written<TaskRow> | undefined> {
  const before = await tx.query.tasks.findFirst({ where: eq(tasks.id, taskId) });
  // Ended is ended: a job that fails after its asset was deleted does not turn "cancelled" into "failed".
  if (!before || ENDED.includes(before.phase)) return undefined;
  // Checked again by the update itself: the task may have ended since it was read (an upload's
  // "running" racing its job's "failed" put a failed task back to running).
  const [row] = await tx
    .update(tasks)
    .set({ ...change, updatedAt: Date.now() })
    .where(and(eq(tasks.id, taskId), notInArray(tasks.phase, ENDED)))
    .returning();
  if (!row) return undefined;
  const event = change.phase && change.phase !== before.phase ? PHASE_EVENTS[change.phase] : undefined;
  return { row, announce: async () => void (event && (await notifyWebhooks(row.userId, event, { payload: { task: serializeTask(row) } }))) };
}
