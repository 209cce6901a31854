import type http from "node:http";
import { AsyncLocalStorage } from "node:async_hooks";
import { config } from "@/lib/config";

/** What a Host or X-Forwarded-Host header may hold: a host name or address, and a port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

const first = (value: string | null | undefined) => value?.split(",")[0].trim() || undefined;

/** What is read of a request's headers: a fetch Headers, or a view of a Node request's. */
export type HeaderReader = { get(name: string): string | null };

/** A Node request's headers, read as a fetch Headers would be (a repeated header's values joined). */
export class NodeHeaders implements HeaderReader {
  constructor(private readonly headers: http.IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name];
    return (Array.isArray(value) ? value.join(", ") : value) || null;
  }
}

/**
 * The origin the browser used to reach this app: PUBLIC_URL when set; else the Host
 * header, or X-Forwarded-Host when the operator trusts the proxy in front
 * (AUTH_TRUST_HOST=true). The scheme is X-Forwarded-Proto, which Next.js sets from the
 * connection when no proxy did, and which Auth.js also reads when it looks up a session:
 * both then agree on whether the session cookie is a secure one.
 */
export function browserOrigin(headers: HeaderReader, cfg = config()): string | undefined {
  if (cfg.PUBLIC_URL) return new URL(cfg.PUBLIC_URL).origin;
  const host = (cfg.AUTH_TRUST_HOST && first(headers.get("x-forwarded-host"))) || first(headers.get("host"));
  if (!host || !HOST.test(host)) return undefined;
  const scheme = first(headers.get("x-forwarded-proto")) === "https" ? "https" : "http";
  return new URL(`${scheme}://${host}`).origin;
}

/** One per process: the launcher sets it, and Next's bundle of this module (another copy) reads it. */
const holder = globalThis as unknown as { __castlineServedRequest?: AsyncLocalStorage<HeaderReader> };
const servedRequest = (holder.__castlineServedRequest ??= new AsyncLocalStorage<HeaderReader>());

/**
 * Runs `serve` as the answer to a request with these headers: URLs handed out meanwhile
 * (publicOrigin) are at the origin the request came to. The launcher's HTTP server wraps
 * every request in it.
 */
export function servingRequest<T>(headers: HeaderReader, serve: () => T): T {
  return servedRequest.run(headers, serve);
}

/**
 * The origin in URLs handed to users (playback, uploads, ingest, recordings): PUBLIC_URL;
 * else, while answering a request, the origin that request came to (browserOrigin); else
 * (background work: webhook payloads, exports) the app's own URL.
 */
export function publicOrigin(): string {
  const cfg = config();
  if (cfg.PUBLIC_URL) return cfg.PUBLIC_URL.replace(/\/$/, "");
  const request = servedRequest.getStore();
  return (request && browserOrigin(request, cfg)) ?? (cfg.APP_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/$/, "");
}
