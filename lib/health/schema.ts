import { z } from "zod";

const Check = z.object({ ok: z.boolean() });

/** GET /api/health: whether this instance can serve, and what in the deployment is amiss. */
export const Health = z
  .object({
    status: z.enum(["ok", "degraded"]).describe("degraded: the database answers but a check below is not ok"),
    checks: z.object({
      database: Check.extend({ latencyMs: z.number() }),
      store: Check.extend({ latencyMs: z.number(), kind: z.enum(["local", "s3"]) }).describe("a small object written and read back"),
      jobs: Check.extend({
        lagS: z.number().describe("age of the oldest due background run no worker holds"),
        queued: z.number().int(),
      }),
      nodes: Check.extend({
        healthy: z.number().int(),
        overloaded: z.number().int().describe("up, but their CPU is overloaded or a broadcast on them fell behind real time"),
        lost: z.number().int(),
      }).describe("media nodes; not ok when some are registered but none is up (healthy or overloaded)"),
    }),
  })
  .meta({ id: "Health" });
export type Health = z.infer<typeof Health>;
