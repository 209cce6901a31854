import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import { invalid } from "@/lib/errors";
import { db } from "./client";

/**
 * Lists are newest first and paged by an opaque cursor: the (createdAt, id) of
 * the last item seen, so pages stay stable while new objects are created.
 */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

interface Position {
  createdAt: number;
  id: string;
}

export function encodeCursor(p: Position): string {
  return Buffer.from(`${p.createdAt}:${p.id}`).toString("base64url");
}

export function decodeCursor(cursor: string): Position | undefined {
  const text = Buffer.from(cursor, "base64url").toString();
  const sep = text.indexOf(":");
  const createdAt = Number(text.slice(0, sep));
  const id = text.slice(sep + 1);
  if (sep < 1 || !Number.isSafeInteger(createdAt) || !/^[\w-]{1,128}$/.test(id)) return undefined;
  return { createdAt, id };
}

interface Keyed {
  createdAt: PgColumn;
  id: PgColumn;
}

/**
 * WHERE, ORDER BY and LIMIT for one page of a table, newest first. It asks for
 * one row more than the page holds, which tells toPage whether more exist.
 */
export function pageWindow(table: Keyed, page: PageQuery) {
  const position = page.cursor ? decodeCursor(page.cursor) : undefined;
  if (page.cursor && !position) throw invalid("cursor is not valid");
  const after: SQL | undefined = position
    ? or(
        lt(table.createdAt, position.createdAt),
        and(eq(table.createdAt, position.createdAt), lt(table.id, position.id)),
      )
    : undefined;
  return { after, orderBy: [desc(table.createdAt), desc(table.id)], limit: page.limit + 1 };
}

export interface Page<T> {
  items: T[];
  next?: string;
}

/** Cuts a list fetched with limit + 1 rows down to a page, with the next cursor if more exist. */
export function toPage<T extends Position>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(items[items.length - 1]) };
}

/**
 * One page of a table's rows that match `where`, newest first, each serialised to its
 * public shape, with the cursor of the next page when there is one.
 */
export async function pageOf<T extends PgTable & Keyed, S>(
  table: T,
  where: SQL | undefined,
  page: PageQuery,
  serialize: (row: T["$inferSelect"]) => S,
): Promise<Page<S>> {
  const window = pageWindow(table, page);
  const rows = (await db()
    .select()
    .from(table as PgTable)
    .where(and(where, window.after))
    .orderBy(...window.orderBy)
    .limit(window.limit)) as (T["$inferSelect"] & Position)[];
  const { items, next } = toPage(rows, page.limit);
  // Not map(serialize): a serialiser's optional second parameter would get the index (the asset list did).
  return { items: items.map((row) => serialize(row)), next };
}
