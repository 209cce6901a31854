import { z } from "zod";
import { FiltersParam, OrderParam } from "@/lib/api/list-query";

export const TASK_PHASES = ["pending", "waiting", "running", "completed", "failed", "cancelled"] as const;
export const TASK_TYPES = ["import", "export", "upload", "transcode", "transcode-file", "clip"] as const;

export const Task = z
  .object({
    id: z.string(),
    type: z.enum(TASK_TYPES),
    userId: z.string(),
    createdAt: z.number(),
    inputAssetId: z.string().optional(),
    outputAssetId: z.string().optional(),
    params: z.record(z.string(), z.unknown()),
    output: z.record(z.string(), z.unknown()).optional(),
    status: z.object({
      phase: z.enum(TASK_PHASES),
      updatedAt: z.number(),
      progress: z.number().optional(),
      errorMessage: z.string().optional(),
    }),
  })
  .meta({ id: "Task" });
export type Task = z.infer<typeof Task>;

const TaskFilter = z.discriminatedUnion("id", [
  z.strictObject({ id: z.literal("type"), value: z.enum(TASK_TYPES) }),
  z.strictObject({ id: z.literal("status.phase"), value: z.enum(TASK_PHASES) }),
  z.strictObject({ id: z.literal("outputAssetId"), value: z.string().min(1).max(64) }),
]);
export type TaskFilter = z.infer<typeof TaskFilter>;

export const TaskListQuery = z.object({
  filters: FiltersParam(TaskFilter).describe("URL-encoded JSON [{id, value}]: type, status.phase, outputAssetId (the tasks that make an asset)"),
  order: OrderParam(["createdAt"]),
});
