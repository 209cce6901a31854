import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { tasks } from "@/db/schema";
import { compact } from "@/lib/api/compact";
import { notFound } from "@/lib/api/errors";
import { pageWindow, toPage, type Page, type PageQuery } from "@/lib/api/pagination";
import type { Task } from "./schema";

export type TaskRow = typeof tasks.$inferSelect;

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
      phase: row.phase as Task["status"]["phase"],
      updatedAt: row.updatedAt,
      progress: row.progress,
      errorMessage: row.errorMessage,
    }),
  });
}

export async function listTasks(userId: string, page: PageQuery): Promise<Page<Task>> {
  const window = pageWindow(tasks, page);
  const rows = await db()
    .select()
    .from(tasks)
    .where(and(eq(tasks.userId, userId), window.after))
    .orderBy(...window.orderBy)
    .limit(window.limit);
  const { items, next } = toPage(rows, page.limit);
  return { items: items.map(serializeTask), next };
}

export async function getTask(userId: string, id: string): Promise<Task> {
  const row = await db().query.tasks.findFirst({ where: and(eq(tasks.id, id), eq(tasks.userId, userId)) });
  if (!row) throw notFound("task");
  return serializeTask(row);
}
