import { addressSubject, CLIENT_ADDRESS_HEADER } from "@/lib/rate-limits/address";
import { limits, refusalMessage } from "@/lib/rate-limits/limits";
import { isPlaybackPath } from "@/lib/rate-limits/playback";
import { countHits, quotaHeaders, tightest, type Limit, type Quota } from "@/lib/rate-limits/store";
import { ApiError } from "./errors";
import type { Operation } from "./operations";

/** The client's address as the launcher resolved it (lib/rate-limits/address.ts). */
export const clientAddressOf = (req: Request) => req.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";

/**
 * One request's rate limits (RATE_LIMIT_*): its address is counted before anything else is
 * done for it, its API key once authenticated. Every answer carries the tightest quota's
 * RateLimit headers; an exceeded one is a 429 with Retry-After.
 */
export class RequestQuota {
  private quota: Quota | undefined;

  /**
   * Media nodes (the deployment's own, authenticated by MEDIA_SECRET) are not limited; playback
   * info is limited with the other playback paths, by the launcher.
   */
  async spendByAddress(req: Request, op: Operation) {
    if (op.auth === "media" || isPlaybackPath(new URL(req.url).pathname)) return;
    await this.spend(limits().address, addressSubject(clientAddressOf(req)));
  }

  async spendByKey(keyId: string) {
    await this.spend(limits().apiKey, keyId);
  }

  private async spend(limit: Limit, subject: string) {
    if (!limit.perMinute) return;
    let quota: Quota;
    try {
      [{ quota }] = await countHits([{ limit, subject }]);
    } catch (err) {
      // Without the database nothing is counted: the request goes on and says what it can
      // (/api/health must answer 503, not fail here).
      warnUncounted(err);
      return;
    }
    this.quota = tightest([this.quota, quota]);
    if (quota.exceeded) throw new ApiError(429, [refusalMessage(`per ${limit.name}`, quota.limit, quota.resetS)], quotaHeaders(quota));
  }

  /** The answer as it leaves, with the RateLimit headers. */
  apply(res: Response): Response {
    if (!this.quota) return res;
    const out = new Response(res.body, res);
    for (const [k, v] of Object.entries(quotaHeaders(this.quota))) out.headers.set(k, v);
    return out;
  }
}

let warnedAt = 0;
function warnUncounted(err: unknown) {
  if (Date.now() - warnedAt < 60_000) return;
  warnedAt = Date.now();
  console.error("rate limits: not counted, the database is unavailable:", err instanceof Error ? err.message : err);
}
