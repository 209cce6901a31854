import type { Transport } from "@/lib/api/client";

/** How a bench calls the app's API with `call()` (lib/api/client.ts): an API key's. A failed answer throws (a bench must not measure refusals). */
export const withKey = (appUrl: string, key: string): Transport => ({ baseUrl: appUrl, headers: { authorization: `Bearer ${key}` } });
