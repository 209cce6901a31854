import { z } from "zod";

export const ApiKeyCreate = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(100).default("API key"),
});

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The first characters of the key, to tell keys apart. */
    prefix: z.string(),
    createdAt: z.number(),
    lastUsedAt: z.number().optional(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ApiKey>;

/** Only the creation response carries the key itself. */
export const ApiKeyCreated = ApiKey.extend({ key: z.string() }).meta({ id: "ApiKeyCreated" });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;
