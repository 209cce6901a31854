import { NextRequest } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { requestBody } from "@/lib/bounded-body";
import { invalid } from "@/lib/errors";

/** What a POST to Auth.js carries (a CSRF token, an email and password, a callback URL) is small. */
const AUTH_POST_LIMIT = 16 * 1024;

const FORM_TYPE = "application/x-www-form-urlencoded";

/**
 * A POST to Auth.js with its body read here, counted and cut at AUTH_POST_LIMIT (Auth.js would
 * read any length), handed on as a request Auth.js reads again from memory.
 */
export async function boundedAuthPost(req: NextRequest): Promise<NextRequest> {
  const body = await requestBody(req, AUTH_POST_LIMIT, "the request body");
  return new NextRequest(req.nextUrl, { method: req.method, headers: req.headers, body });
}

/**
 * A credentials sign-in's form, read once (bounded), with each field once: Auth.js keeps the last
 * of a repeated field, so a second `email` would be checked while the first was counted. (It also
 * reads JSON, where a repeated key keeps its last value too: a sign-in is a form.) The request
 * handed on carries exactly this form, re-encoded, so what the throttle counts is what Auth.js checks.
 */
export async function signInForm(req: NextRequest): Promise<{ form: URLSearchParams; request: NextRequest }> {
  const type = req.headers.get("content-type") ?? "";
  if (!new RegExp(`^${FORM_TYPE}\\s*(;|$)`, "i").test(type)) throw new ApiError(415, [`content-type must be ${FORM_TYPE}`]);
  const form = new URLSearchParams(new TextDecoder().decode(await requestBody(req, AUTH_POST_LIMIT, "the sign-in form")));
  const names = [...form.keys()];
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) throw invalid(`the sign-in form has the field ${JSON.stringify(repeated.slice(0, 40))} more than once: send each field once`);
  const headers = new Headers(req.headers);
  headers.set("content-type", FORM_TYPE);
  headers.delete("content-length");
  return { form, request: new NextRequest(req.nextUrl, { method: "POST", headers, body: form.toString() }) };
}
