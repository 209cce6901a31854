import { getToken } from "@auth/core/jwt";
import { config } from "@/lib/config";
import type { HeaderReader } from "@/lib/origin";
import { liveSession } from "./sessions";

/** Auth.js's session cookie: its name on a secure origin (https) and on a plain one. */
const COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

/**
 * The signed-in dashboard user a request's session cookie stands for, read as Auth.js reads it
 * (the cookie is a JWE under AUTH_SECRET, salted with its name) and checked as every use of it is
 * (lib/auth/sessions.ts: not signed out, password not reset since). Outside Next's request
 * pipeline: the viewer plane answers before Next, and Auth.js's auth() needs Next's context.
 */
export async function signedInUserId(headers: HeaderReader): Promise<string | undefined> {
  const cookie = headers.get("cookie");
  // The secure name first: the plain one is part of it. (A long cookie comes in chunks, <name>.0, <name>.1.)
  const name = cookie ? COOKIES.find((n) => cookie.includes(n)) : undefined;
  const secret = config().AUTH_SECRET;
  if (!cookie || !name || !secret) return undefined;
  // Only the cookie: getToken would also take an Authorization bearer (an API key) for a session.
  const token = await getToken({ req: { headers: new Headers({ cookie }) }, secret, secureCookie: name.startsWith("__Secure-"), salt: name }).catch(() => null);
  if (!token) return undefined;
  return (await liveSession(token)) ? token.sub : undefined;
}
