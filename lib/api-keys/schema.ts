import { z } from "zod";

/** A browser origin as pages send it in the Origin header: scheme, host and port only. */
export const BrowserOrigin = z
  .string()
  .max(253)
  .transform((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      /* reported below */
    }
    const bare = url && /^https?:$/.test(url.protocol) && !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash;
    if (!url || !bare || !/^https?:\/\/[^/?#]+\/?$/i.test(value)) {
      ctx.addIssue({ code: "custom", message: "must be an origin such as https://example.com (http or https, a host and an optional port, nothing after)" });
      return z.NEVER;
    }
    return url.origin;
  });

export const ApiKeyCreate = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(100).default("API key"),
  /**
   * A CORS-enabled key: web pages on these origins may use it, for creating upload URLs
   * (POST /asset/request-upload) only. Such a key is in the page's source for anyone to
   * read: give it no more than that.
   */
  allowedOrigins: z.array(BrowserOrigin).min(1, "list at least one origin, or leave the field out").max(20).optional(),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The first characters of the key, to tell keys apart. */
    prefix: z.string(),
    createdAt: z.number(),
    lastUsedAt: z.number().optional(),
    /** Browser origins that may use the key (a CORS-enabled key); absent: no browser origin. */
    allowedOrigins: z.array(z.string()).optional(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ApiKey>;

/** Only the creation response carries the key itself. */
export const ApiKeyCreated = ApiKey.extend({ key: z.string() }).meta({ id: "ApiKeyCreated" });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;
