const HOME = "/streams";
/** A stand-in origin: a path that resolves to another one leads off this site. */
const HERE = "http://castline.invalid";

/**
 * Where to go after sign-in: a path on this site, or the dashboard's home. The path is
 * resolved as the browser would (which drops tabs and newlines and reads "\" as "/"),
 * so "//evil.example" and "/\t/evil.example" cannot send people elsewhere.
 */
export function safeCallback(url: string | undefined | null): string {
  if (!url?.startsWith("/")) return HOME;
  try {
    const resolved = new URL(url, HERE);
    return resolved.origin === HERE ? resolved.pathname + resolved.search + resolved.hash : HOME;
  } catch {
    return HOME;
  }
}

/** `path` (sign-in or sign-up) bringing the user back to `page`, a path on this site, afterwards. */
export function withCallback(path: string, page: string | undefined | null): string {
  const back = safeCallback(page);
  return back === HOME ? path : `${path}?callbackUrl=${encodeURIComponent(back)}`;
}

export const signInPath = (page: string | undefined | null) => withCallback("/sign-in", page);
