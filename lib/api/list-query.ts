import { z } from "zod";

/*
 * The query parameters that search, filter and sort lists, in Livepeer's forms. Framework-free:
 * the dashboard builds its URLs with the same schemas.
 */

/**
 * Lists are newest first unless asked otherwise, and paged by an opaque cursor: the sort
 * key and id of the last item seen, so pages stay stable while new objects are created
 * (db/pagination.ts reads it).
 */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** A list's search, filters and order as the URL carries them (`filters` and `order` below, in their text form). */
export interface ListQuery {
  filters?: string;
  order?: string;
}

/** A list's order: a key and its direction; ties are broken by id in the same direction. */
export interface Order {
  by: string;
  desc: boolean;
}
export const NEWEST_FIRST: Order = { by: "createdAt", desc: true };

/** `order=<key>-<true|false>`, Livepeer's form: true is descending (`createdAt-true`, newest first, is the default). */
export function OrderParam<const K extends string>(keys: readonly [K, ...K[]]) {
  const values = keys.flatMap((k) => [`${k}-true`, `${k}-false`]) as [string, ...string[]];
  return z
    .enum(values)
    .optional()
    .transform((text): Order & { by: K } => {
      if (!text) return NEWEST_FIRST as Order & { by: K };
      const dash = text.lastIndexOf("-");
      return { by: text.slice(0, dash) as K, desc: text.slice(dash + 1) === "true" };
    })
    .describe(`sort key and whether descending: ${values.join(", ")}; default createdAt-true`);
}

/** `filters=[{"id":…,"value":…}]`, URL-encoded JSON, Livepeer's form; every filter must hold. */
export function FiltersParam<T extends z.ZodType>(filter: T) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a URL-encoded JSON array of {id, value}" });
        return z.NEVER;
      }
    })
    .pipe(z.array(filter).max(20))
    .optional();
}

/** A case-insensitive substring of a name (LIKE's wildcards in it match themselves). */
export const NameSearch = z.string().trim().min(1).max(200);
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** A numeric range, Livepeer's `{gt, lt}` filter value (bounds exclusive), of numbers its column can compare with. */
const RangeOf = (bound: z.ZodNumber) => z.strictObject({ gt: bound.optional(), lt: bound.optional() });
export type Range = { gt?: number; lt?: number };

/** Of times (ms since the epoch, whole: bigint columns), within what a JavaScript number holds exactly. */
export const TimeRange = RangeOf(z.number().int("must be a whole number of milliseconds").min(0).max(Number.MAX_SAFE_INTEGER));
/** Of durations in seconds (fractions allowed: double precision). */
export const SecondsRange = RangeOf(z.number().min(0).max(Number.MAX_SAFE_INTEGER));
