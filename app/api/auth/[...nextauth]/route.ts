import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { atBrowserOrigin } from "@/lib/auth/origin";

export const GET = (req: NextRequest) => handlers.GET(atBrowserOrigin(req));
export const POST = (req: NextRequest) => handlers.POST(atBrowserOrigin(req));
