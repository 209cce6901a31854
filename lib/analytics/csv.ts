/** Whether a request asks for CSV (Accept: text/csv) rather than JSON. */
export const wantsCsv = (req: Request) => /\btext\/csv\b/i.test(req.headers.get("accept") ?? "");

/**
 * Rows as CSV (RFC 4180): a header of every field any row has, in first-seen order; a field a
 * row lacks is empty; quotes around values with commas, quotes or line breaks. A value that
 * begins like a formula (=, +, -, @) is prefixed with ' so that spreadsheets show it as text.
 */
export function csvOf(rows: Record<string, unknown>[]): string {
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => {
    if (v === undefined || v === null) return "";
    let s = String(v);
    if (typeof v === "string" && /^[=+\-@]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [fields.join(","), ...rows.map((r) => fields.map((f) => cell(r[f])).join(","))].join("\r\n") + "\r\n";
}

/** Rows answered as JSON, or as a CSV file to a request that asks for one. */
export function rowsAnswer<T extends Record<string, unknown>>(req: Request, rows: T[], name: string): T[] | Response {
  if (!wantsCsv(req)) return rows;
  return new Response(csvOf(rows), {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}.csv"`, "cache-control": "no-store" },
  });
}
