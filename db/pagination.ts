import { and, asc, desc, ilike, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { likePattern, NEWEST_FIRST, type Order, type PageQuery, type Range } from "@/lib/api/list-query";
import { invalid } from "@/lib/errors";
import { db } from "./client";

const isNewestFirst = (o: Order) => o.by === NEWEST_FIRST.by && o.desc;

export interface Position {
  key: number;
  id: string;
}

/**
 * Newest-first cursors keep the form they always had (`<createdAt>:<id>`); other orders carry
 * the order too, so a cursor given back with another order is refused rather than misread.
 */
export function encodeCursor(p: Position, order: Order = NEWEST_FIRST): string {
  const text = isNewestFirst(order) ? `${p.key}:${p.id}` : JSON.stringify([order.by, order.desc, p.key, p.id]);
  return Buffer.from(text).toString("base64url");
}

export function decodeCursor(cursor: string, order: Order = NEWEST_FIRST): Position | undefined {
  const text = Buffer.from(cursor, "base64url").toString();
  let key: unknown;
  let id: unknown;
  if (isNewestFirst(order)) {
    const sep = text.indexOf(":");
    if (sep < 1) return undefined;
    key = Number(text.slice(0, sep));
    id = text.slice(sep + 1);
    if (!Number.isSafeInteger(key)) return undefined;
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== order.by || parsed[1] !== order.desc) return undefined;
    [, , key, id] = parsed;
  }
  if (typeof key !== "number" || !Number.isFinite(key) || typeof id !== "string" || !/^[\w-]{1,128}$/.test(id)) return undefined;
  return { key, id };
}

interface Keyed {
  createdAt: PgColumn;
  id: PgColumn;
}

/** What a list is sorted by: the order asked for, and its key as an expression on the table. */
export interface Sort {
  order: Order;
  key: SQL | PgColumn;
}

/**
 * WHERE, ORDER BY and LIMIT for one page of a table. It asks for one row more than the
 * page holds, which tells toPage whether more exist. The row comparison matches an index
 * on (owner, key, id), read forwards or backwards.
 */
export function pageWindow(table: Keyed, page: PageQuery, sort: Sort = { order: NEWEST_FIRST, key: table.createdAt }) {
  const position = page.cursor ? decodeCursor(page.cursor, sort.order) : undefined;
  if (page.cursor && !position) throw invalid("cursor is not valid (for this order)");
  const direction = sort.order.desc ? desc : asc;
  const after: SQL | undefined = position ? sql`(${sort.key}, ${table.id}) ${sort.order.desc ? sql`<` : sql`>`} (${position.key}, ${position.id})` : undefined;
  return { after, orderBy: [direction(sort.key), direction(table.id)], limit: page.limit + 1 };
}

export interface Page<T> {
  items: T[];
  next?: string;
}

/** Cuts a list fetched with limit + 1 rows down to a page, with the next cursor if more exist. */
export function toPage<T>(rows: T[], limit: number, at: (row: T) => Position, order: Order = NEWEST_FIRST): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(at(items[items.length - 1]), order) };
}

/** Sorts merged rows of several tables as one list in `order`. */
export function compareBy(order: Order) {
  return (a: Position, b: Position) => {
    const c = a.key - b.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return order.desc ? -c : c;
  };
}

/**
 * One page of a table's rows that match `where`, in the sort asked for (newest first by
 * default), each serialised to its public shape, with the cursor of the next page when there is one.
 */
export async function pageOf<T extends PgTable & Keyed, S>(
  table: T,
  where: SQL | undefined,
  page: PageQuery,
  serialize: (row: T["$inferSelect"]) => S,
  sort: Sort = { order: NEWEST_FIRST, key: table.createdAt },
): Promise<Page<S>> {
  const window = pageWindow(table, page, sort);
  const rows = (await db()
    .select({ row: table as PgTable, key: sql`${sort.key}`.mapWith(Number) })
    .from(table as PgTable)
    .where(and(where, window.after))
    .orderBy(...window.orderBy)
    .limit(window.limit)) as { row: T["$inferSelect"] & { id: string }; key: number }[];
  const { items, next } = toPage(rows, page.limit, (r) => ({ key: r.key, id: r.row.id }), sort.order);
  // Not map(serialize): a serialiser's optional second parameter would get the index (the asset list did).
  return { items: items.map((r) => serialize(r.row)), next };
}

/** Conditions of a Range filter on an expression. */
export function inRange(key: SQL | PgColumn, range: Range): SQL[] {
  const conditions: SQL[] = [];
  if (range.gt !== undefined) conditions.push(sql`${key} > ${range.gt}`);
  if (range.lt !== undefined) conditions.push(sql`${key} < ${range.lt}`);
  return conditions;
}

/** A name search: a case-insensitive substring, served by the trigram indexes on names. */
export const nameContains = (column: PgColumn, text: string) => ilike(column, likePattern(text));
