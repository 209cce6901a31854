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

// The dashboard's pages (app/(dashboard)); a page missing here still asks for sign-in, then opens the home page.
export const config = {
  matcher: ["/streams/:path*", "/targets/:path*", "/assets/:path*", "/tasks/:path*", "/webhooks/:path*", "/api-keys/:path*", "/access-control/:path*"],
};
