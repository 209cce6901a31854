import { randomUUID } from "node:crypto";
import http from "node:http";
import { answerOf, send, type CallArgs, type CallResult, type Page } from "@/lib/api/client";
import type { Operation } from "@/lib/api/operations";

/** The running app under test (started by `npm test`). */
export const BASE = (() => {
  const url = process.env.CASTLINE_URL;
  if (!url) throw new Error("CASTLINE_URL is not set: run the suite with `npm test`");
  return url;
})();

// biome-ignore lint/suspicious/noExplicitAny: an answer's body is what the test asserts on; typed calls pass T
export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

interface CallOptions {
  auth?: string;
  cookie?: string;
  body?: unknown;
  /** Sent as is, for malformed-input tests. */
  raw?: string;
  headers?: Record<string, string>;
  /** Another app than the one under test (e.g. a second deployment). */
  base?: string;
}

export async function call(method: string, path: string, opts: CallOptions = {}): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth !== undefined) headers.authorization = opts.auth;
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const url = /^https?:/.test(path) ? path : new URL(path.startsWith("/") ? path : `/api/${path}`, opts.base ?? BASE);
  // Signed in, as the dashboard's own pages call the API: browsers name the page's origin.
  if (opts.cookie && !Object.keys(headers).some((h) => h.toLowerCase() === "origin")) headers.origin = new URL(url).origin;
  const res = await fetch(url, {
    method,
    headers,
    body,
    redirect: "manual",
  });
  return { status: res.status, body: await bodyOf(res), headers: res.headers };
}

export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with headers fetch() will not send as given (Host). */
export function raw(base: string, method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const url = new URL(pathname, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** An API client for one user's key. Paths are relative to /api/. */
export class Api {
  constructor(
    readonly key: string,
    readonly email: string,
    readonly base = BASE,
  ) {}
  get = (path: string) => this.send("GET", path);
  delete = (path: string) => this.send("DELETE", path);
  post = (path: string, body?: unknown) => this.send("POST", path, { body });
  patch = (path: string, body?: unknown) => this.send("PATCH", path, { body });
  put = (path: string, body?: unknown) => this.send("PUT", path, { body });
  send = (method: string, path: string, opts: Omit<CallOptions, "auth"> = {}) => call(method, path, { base: this.base, ...opts, auth: `Bearer ${this.key}` });

  /**
   * A declared operation (lib/api/operations.ts), called through the app's one client
   * (lib/api/client.ts): `params`, `query` and `body` are typed by the declaration, and the
   * success answer is parsed with its response schema, so the body is typed and an answer
   * outside the public shape fails the test. A refusal is answered, not thrown: its status and
   * `{"errors": [...]}` body are the test's to check. The way to call the API in new tests.
   */
  async call<O extends Operation>(op: O, ...[input, transport]: CallArgs<O>): Promise<Res<Success<O>>> {
    const res = await send(op, input, {
      baseUrl: this.base,
      redirect: "manual",
      ...transport,
      headers: { authorization: `Bearer ${this.key}`, ...transport?.headers },
    });
    // Typed as the success body, as before: a test checks the status before it reads a refusal's `errors`.
    if (res.status !== op.status) return { status: res.status, headers: res.headers, body: (await bodyOf(res)) as Success<O> };
    const answer = (await answerOf(op, res)) as CallResult<O>;
    // A page's items are the body as the API sends it; its Link header is in `headers`.
    const body = (op.paged ? (answer as Page<unknown>).items : answer) as Success<O>;
    return { status: res.status, headers: res.headers, body };
  }
}

/** The parsed body of an operation's success answer: a paged operation's items. */
type Success<O extends Operation> = CallResult<O> extends Page<infer T> ? T[] : CallResult<O>;

async function bodyOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text; // not JSON: the text as it is
  }
}

function cookiesOf(res: Res): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Signs in through Auth.js's credentials flow, as the browser does; returns the session cookie. */
export const signIn = (email: string, password: string) => signInAt(BASE, email, password);

export async function signInAt(base: string, email: string, password: string): Promise<string> {
  const csrf = await call("GET", `${base}/api/auth/csrf`);
  const csrfCookie = cookiesOf(csrf);
  const form = new URLSearchParams({ email, password, csrfToken: csrf.body.csrfToken, json: "true" });
  const res = await call("POST", `${base}/api/auth/callback/credentials`, {
    cookie: csrfCookie,
    raw: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const session = cookiesOf(res)
    .split("; ")
    .find((c) => c.includes("authjs.session-token="));
  if (!session) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return session;
}

/** Signs out through Auth.js, as the dashboard's sign-out button does: ends the session of `cookie`. */
export async function signOut(cookie: string, base = BASE): Promise<void> {
  const csrf = await call("GET", `${base}/api/auth/csrf`);
  const form = new URLSearchParams({ csrfToken: csrf.body.csrfToken, callbackUrl: "/sign-in" });
  const res = await call("POST", `${base}/api/auth/signout`, {
    cookie: `${cookie}; ${cookiesOf(csrf)}`,
    raw: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (res.status !== 302) throw new Error(`sign-out failed: ${res.status}`);
}

/** A fresh user with an API key, made the way a user would: sign up, sign in, create a key. */
export async function newAccount(base = BASE): Promise<Api & { cookie: string; password: string }> {
  const email = `user-${randomUUID()}@example.com`;
  const password = "correct horse battery";
  const signup = await call("POST", "user", { base, body: { email, password, name: "Test User" } });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const cookie = await signInAt(base, email, password);
  const key = await call("POST", "api-key", { base, cookie, body: { name: "tests" } });
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${JSON.stringify(key.body)}`);
  return Object.assign(new Api(key.body.key, email, base), { cookie, password });
}

export const PROFILES = [
  { name: "720p", width: 1280, height: 720, bitrate: 3_000_000, fps: 30 },
  { name: "360p", width: 640, height: 360, bitrate: 800_000, fps: 30 },
];
