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
