import { z } from "zod";

/** A browser origin as browsers send it in `Origin`: scheme, host and port, nothing else. */
export const BrowserOrigin = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
    } catch {
      return false;
    }
  },
  { message: "must be an origin such as https://example.com (scheme, host and optional port, no path or trailing slash)" },
);

/** Seconds a webhook policy's answer is trusted for an access key, unless the policy says. */
export const DEFAULT_REFRESH_INTERVAL_S = 600;

/**
 * Who may watch a stream (live and its recordings) or an asset: Livepeer's shape.
 * "public": anyone with the playback id; "jwt": viewers with a JWT signed by one of the
 * owner's signing keys; "webhook": viewers whose access key the owner's webhook admits.
 */
export const PlaybackPolicy = z
  .strictObject({
    type: z.enum(["public", "jwt", "webhook"]),
    webhookId: z.string().min(1).max(128).optional().describe('the webhook asked about each viewer\'s access key (type "webhook")'),
    webhookContext: z
      .record(z.string(), z.unknown())
      .refine((context) => JSON.stringify(context).length <= 4096, { message: "must be at most 4096 bytes of JSON" })
      .optional()
      .describe("sent to the webhook with every access key"),
    refreshInterval: z.number().int().min(1).max(86_400).optional().describe(`seconds a webhook's admission lasts (default ${DEFAULT_REFRESH_INTERVAL_S})`),
    allowedOrigins: z
      .array(BrowserOrigin)
      .max(50)
      .optional()
      .describe(
        "browser origins that may play it (Origin, else Referer): pages of other sites, opaque pages (Origin: null) and requests naming no page are refused; absent: any",
      ),
  })
  .superRefine((policy, ctx) => {
    if (policy.type === "webhook" && !policy.webhookId) ctx.addIssue({ code: "custom", path: ["webhookId"], message: 'is required for type "webhook"' });
    if (policy.type !== "webhook" && (policy.webhookId || policy.webhookContext || policy.refreshInterval)) {
      ctx.addIssue({ code: "custom", path: ["type"], message: 'webhookId, webhookContext and refreshInterval apply only to type "webhook"' });
    }
  })
  .meta({ id: "PlaybackPolicy" });
export type PlaybackPolicy = z.infer<typeof PlaybackPolicy>;

/** As policies are set: null (Livepeer allows it on PATCH) means public. */
export const PlaybackPolicyInput = PlaybackPolicy.nullable();

/** As Livepeer Studio: a handful of keys per account is what rotation needs. */
export const MAX_SIGNING_KEYS = 10;

export const SigningKey = z
  .object({
    id: z.string(),
    name: z.string(),
    userId: z.string(),
    createdAt: z.number(),
    lastSeen: z.number().optional().describe("when the key last admitted a viewer (to the minute)"),
    publicKey: z.string().describe("base64 of the PEM (SPKI) public key; a viewer JWT names it in its `pub` claim"),
    disabled: z.boolean(),
  })
  .meta({ id: "SigningKey" });
export type SigningKey = z.infer<typeof SigningKey>;

/** Only the creation answer carries the private key: it is not stored. */
export const SigningKeyCreated = SigningKey.extend({
  privateKey: z.string().describe("base64 of the PEM (PKCS#8) private key, shown this once: sign viewer JWTs (ES256) with it"),
}).meta({ id: "SigningKeyCreated" });
export type SigningKeyCreated = z.infer<typeof SigningKeyCreated>;

const KeyName = z.string().trim().min(1, "must not be empty").max(100);

/** The SDK's accessControl.create() sends no body at all. */
export const SigningKeyCreate = z.strictObject({ name: KeyName.optional() }).meta({ id: "SigningKeyCreatePayload" });
export const SigningKeyPatch = z.strictObject({ name: KeyName.optional(), disabled: z.boolean().optional() }).meta({ id: "SigningKeyPatchPayload" });
export type SigningKeyPatch = z.infer<typeof SigningKeyPatch>;
