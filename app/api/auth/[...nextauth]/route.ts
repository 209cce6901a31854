import type { NextRequest } from "next/server";
import { ApiError, errorResponse, refusalResponse } from "@/lib/api/errors";
import { handlers } from "@/lib/auth";
import { atBrowserOrigin } from "@/lib/auth/origin";
import { boundedAuthPost, signInForm } from "@/lib/auth/posts";
import { throttledSignIn } from "@/lib/auth/throttle";
import { Refusal } from "@/lib/errors";

export const GET = (req: NextRequest) => handlers.GET(atBrowserOrigin(req));

/** Auth.js reads a POST's body itself, whole: it gets one read here, bounded, instead. */
export async function POST(req: NextRequest) {
  try {
    if (!req.nextUrl.pathname.endsWith("/callback/credentials")) return await handlers.POST(atBrowserOrigin(await boundedAuthPost(req)));
    const { form, request } = await signInForm(req);
    return await throttledSignIn(request, form, () => handlers.POST(atBrowserOrigin(request)));
  } catch (err) {
    if (err instanceof Refusal) return refusalResponse(err);
    if (err instanceof ApiError) return errorResponse(err.status, err.messages);
    throw err;
  }
}
