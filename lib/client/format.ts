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
