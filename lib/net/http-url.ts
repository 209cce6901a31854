import { z } from "zod";

/** A URL users give us to call or fetch (webhooks, imports, exports): http(s) only. */
export const HttpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL");

/**
 * A user's URL as we show it back and keep it outside sealed job data: without userinfo
 * (`user:password@`) or query string (often a signature), which are credentials.
 */
export function withoutCredentials(value: string): string {
  const url = new URL(value);
  return `${url.protocol}//${url.host}${url.pathname}${url.search ? "?…" : ""}`;
}
