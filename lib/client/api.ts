/**
 * The dashboard's way to call the Castline API: same origin, the session cookie
 * authenticates. A failed call throws an ApiRequestError carrying the server's
 * `{"errors": [...]}` messages, so forms can show them as they are.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join("\n"));
    this.name = "ApiRequestError";
  }
}

export interface ApiPage<T> {
  items: T[];
  /** The URL of the next page, from the Link header, when more exist. */
  next?: string;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

async function send(path: string, method: Method, body?: unknown): Promise<Response> {
  return request(path, {
    method,
    headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function request(path: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, credentials: "same-origin" });
  } catch {
    throw new ApiRequestError(0, ["Could not reach the server. Check your connection and try again."]);
  }
  if (!res.ok) throw new ApiRequestError(res.status, await errorMessages(res));
  return res;
}

async function errorMessages(res: Response): Promise<string[]> {
  try {
    const data = (await res.json()) as { errors?: unknown };
    if (Array.isArray(data.errors) && data.errors.length) return data.errors.map(String);
  } catch {
    // not JSON: fall through to a generic message
  }
  return [`Request failed (${res.status} ${res.statusText || "error"})`];
}

/** One request; 204 (and other empty bodies) give undefined. */
export async function api<T = void>(path: string, method: Method = "GET", body?: unknown): Promise<T> {
  const res = await send(path, method, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file POSTed as the raw body, with its media type. */
export async function apiUpload<T>(path: string, file: Blob, contentType: string): Promise<T> {
  const res = await request(path, { method: "POST", headers: { accept: "application/json", "content-type": contentType }, body: file });
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One page of a list endpoint, with the next page's URL taken from its Link header. */
export async function apiPage<T>(path: string): Promise<ApiPage<T>> {
  const res = await send(path, "GET");
  const items = (await res.json()) as T[];
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
  return { items, next };
}
