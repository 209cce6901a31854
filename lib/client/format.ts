/** Display helpers: dates as people say them, bitrates in the unit encoders use. */

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const absolute = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600_000],
  ["month", 30 * 24 * 3600_000],
  ["week", 7 * 24 * 3600_000],
  ["day", 24 * 3600_000],
  ["hour", 3600_000],
  ["minute", 60_000],
];

export function timeAgo(ms: number, now = Date.now()): string {
  const diff = ms - now;
  if (Math.abs(diff) < 45_000) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size || unit === "minute") return relative.format(Math.round(diff / size), unit);
  }
  return "just now";
}

/** Under a minute, to the second ("12 seconds ago"): a heartbeat's age tells whether what sends it is alive. */
export function secondsAgo(ms: number, now = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  // Clocks of two machines differ a little: never "in 2 seconds".
  return seconds < 60 ? relative.format(-Math.max(0, seconds), "second") : timeAgo(ms, now);
}

export const formatDateTime = (ms: number) => absolute.format(ms);

export function formatBitrate(bps: number): string {
  if (bps >= 1_000_000) return `${+(bps / 1_000_000).toFixed(2)} Mbps`;
  return `${+(bps / 1000).toFixed(0)} kbps`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${rest}s`;
  return `${rest}s`;
}

const clock = new Intl.DateTimeFormat("en", { timeStyle: "medium" });
const precise = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium" });

/** Time of day to the second: retries of one event come seconds apart. */
export const formatClock = (ms: number) => clock.format(ms);
export const formatDateTimeSeconds = (ms: number) => precise.format(ms);

const millis = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

/** A request's duration in milliseconds: a decimal only where it matters. */
export function formatMs(ms: number): string {
  return `${ms < 10 ? +ms.toFixed(1) : millis.format(ms)} ms`;
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  301: "Moved Permanently",
  302: "Found",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** "404 Not Found"; just the number for codes without a well-known name. */
export function formatHttpStatus(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? `${status} ${text}` : String(status);
}

/** Pretty-prints a JSON text; anything else comes back as it was. */
export function prettyJson(text: string): { text: string; json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), json: true };
  } catch {
    return { text, json: false };
  }
}
