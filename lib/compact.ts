/** Drops null and undefined fields: the SDK rejects null in optional fields, so they are omitted. */
export function compact<T extends Record<string, unknown>>(obj: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== null && v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], null> };
}
