import { z } from "zod";

/**
 * Free-form JSON a client may send (e.g. NFT metadata), bounded so that code walking it
 * recursively (merging, serialising, storing in jsonb) cannot run out of stack or memory.
 * The walk itself is iterative for the same reason.
 */
export const JSON_LIMITS = { depth: 32, values: 10_000 } as const;

function exceedsLimits(root: unknown): string | undefined {
  const stack: [unknown, number][] = [[root, 1]];
  let values = 0;
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (++values > JSON_LIMITS.values) return `must not hold more than ${JSON_LIMITS.values} values in all`;
    if (typeof value !== "object" || value === null) continue;
    if (depth > JSON_LIMITS.depth) return `must not nest deeper than ${JSON_LIMITS.depth} levels`;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return undefined;
}

export const JsonObject = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = exceedsLimits(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
