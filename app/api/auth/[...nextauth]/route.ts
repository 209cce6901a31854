import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { atBrowserOrigin } from "@/lib/auth/origin";
import { throttledSignIn } from "@/lib/auth/throttle";

export const GET = (req: NextRequest) => handlers.GET(atBrowserOrigin(req));
export const POST = (req: NextRequest) =>
  req.nextUrl.pathname.endsWith("/callback/credentials")
    ? throttledSignIn(req, () => handlers.POST(atBrowserOrigin(req)))
    : handlers.POST(atBrowserOrigin(req));
