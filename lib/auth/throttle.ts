import { clientAddressOf } from "@/lib/api/rate-limit";
import { addressSubject } from "@/lib/rate-limits/address";
import { limits, refusalMessage } from "@/lib/rate-limits/limits";
import { countHits, quotaHeaders, refundHits, tightest, type Hit } from "@/lib/rate-limits/store";
import { accountEmail } from "@/lib/users/schema";

/** Set-Cookie of a session Auth.js just issued (also its __Secure- form): the sign-in succeeded. */
const SESSION_ISSUED = /authjs\.session-token=[^;]/;

/**
 * Auth.js's credentials sign-in (POST /api/auth/callback/credentials), throttled against
 * password guessing: failed sign-ins are counted per address and per email (the account the
 * form names, as the sign-in looks it up: lib/auth/posts.ts hands Auth.js the very form read
 * here), and past the limit (RATE_LIMIT_AUTH_PER_MIN) a try is refused before any password is
 * checked, until the window ends. Every try is counted when it starts (so parallel guesses
 * cannot slip past the count) and given back when it signs in. An unknown email and a wrong
 * password count and answer alike.
 */
export async function throttledSignIn(req: Request, form: URLSearchParams, signIn: () => Promise<Response>): Promise<Response> {
  const email = accountEmail(form.get("email") ?? "");
  const { signInAddress, signInEmail } = limits();
  const hits: Hit[] = [];
  if (signInAddress.perMinute) hits.push({ limit: signInAddress, subject: addressSubject(clientAddressOf(req)) });
  if (signInEmail.perMinute) hits.push({ limit: signInEmail, subject: email });
  const countedAt = Date.now();
  const refused = tightest((await countHits(hits, countedAt)).map((c) => c.quota).filter((q) => q.exceeded));
  if (refused) {
    const message = refusalMessage(refused.name, refused.limit, refused.resetS);
    // `url` for Auth.js's browser client (next-auth/react signIn reads it): the sign-in page
    // shows the wait, given as `code`.
    const url = new URL(`/sign-in?error=TooManyAttempts&code=${refused.resetS}`, req.url).toString();
    return Response.json({ errors: [message], url }, { status: 429, headers: quotaHeaders(refused) });
  }
  const res = await signIn();
  if (res.headers.getSetCookie().some((c) => SESSION_ISSUED.test(c))) await refundHits(hits, countedAt);
  return res;
}
