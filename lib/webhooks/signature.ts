import { createHmac } from "node:crypto";

/**
 * Two signatures on every delivery, both HMAC-SHA256 with the webhook's secret:
 * - Livepeer-Signature: t=<ms>,v1=<hex of HMAC(body)>, what receivers written for Livepeer Studio verify;
 * - Castline-Signature: t=<ms>,v1=<hex of HMAC("<t>.<body>")>, which also binds the time (replay-safe).
 */
export function signatureHeaders(secret: string, body: string, timestamp: number): Record<string, string> {
  const hmac = (text: string) => createHmac("sha256", secret).update(text).digest("hex");
  return {
    "livepeer-signature": `t=${timestamp},v1=${hmac(body)}`,
    "castline-signature": `t=${timestamp},v1=${hmac(`${timestamp}.${body}`)}`,
  };
}
