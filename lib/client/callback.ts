/** Only paths on this site, so a crafted link cannot send people elsewhere after sign-in. */
export function safeCallback(url: string | undefined): string {
  return url && url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\") ? url : "/streams";
}
