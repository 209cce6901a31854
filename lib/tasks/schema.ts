import { z } from "zod";

export const TASK_PHASES = ["pending", "waiting", "running", "completed", "failed", "cancelled"] as const;
export const TASK_TYPES = ["import", "export", "upload", "transcode", "clip"] as const;

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
