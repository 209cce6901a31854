import { NextResponse, type NextRequest } from "next/server";
import { PAGE_HEADER } from "@/lib/auth/page";

/**
 * Tells the dashboard's layout which page was asked for (layouts do not know), so a
 * signed-out visitor is sent to sign in and then back to that page.
 */
export function proxy(req: NextRequest) {
  const headers = new Headers(req.headers);
  headers.set(PAGE_HEADER, req.nextUrl.pathname + req.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

// The dashboard's pages (app/(dashboard)), written out because Next reads the matcher at build time.
// A page missing here would still ask for sign-in, then open the home page: test/unit/sign-in-matcher.test.ts
// checks the list against the pages in the tree.
export const config = {
  matcher: [
    "/streams/:path*",
    "/broadcasts/:path*",
    "/targets/:path*",
    "/nodes/:path*",
    "/assets/:path*",
    "/tasks/:path*",
    "/viewership/:path*",
    "/webhooks/:path*",
    "/api-keys/:path*",
    "/access-control/:path*",
  ],
};
