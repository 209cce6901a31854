import { config } from "@/lib/config";

/** The origin in URLs handed to users (recordings, playback): PUBLIC_URL, else the app's own URL. */
export function publicOrigin(): string {
  const cfg = config();
  return (cfg.PUBLIC_URL ?? cfg.APP_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/$/, "");
}
