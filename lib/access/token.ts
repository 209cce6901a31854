import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "@/lib/secrets";

/**
 * The short-lived token gated playback URLs carry once a viewer is admitted: bound to the
 * playback id and an expiry, signed with a key derived from AUTH_SECRET (so every app
 * instance checks it without a lookup), and nothing of the viewer's own credential. Players
 * then fetch playlists and segments without the viewer's JWT or access key in every URL.
 */
export const TOKEN_PARAM = "tkn";

let key: Buffer | undefined;
const mac = (playbackId: string, exp: number) => {
  key ??= derivedKey("castline playback token v1");
  // 128 bits of the HMAC: plenty for a token that lives an hour.
  return createHmac("sha256", key).update(`${playbackId}.${exp}`).digest().subarray(0, 16).toString("base64url");
};

export function playbackToken(playbackId: string, ttlS: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ttlS;
  return `${exp.toString(36)}.${mac(playbackId, exp)}`;
}

/** When (ms) a playback token that checked valid expires. */
export const playbackTokenExpiry = (token: string) => parseInt(token.slice(0, token.indexOf(".")), 36) * 1000;

export type TokenCheck = "valid" | "expired" | "invalid";

export function checkPlaybackToken(token: string, playbackId: string, now = Date.now()): TokenCheck {
  const match = /^([0-9a-z]{1,10})\.([\w-]{22})$/.exec(token);
  if (!match) return "invalid";
  const exp = parseInt(match[1], 36);
  const expected = Buffer.from(mac(playbackId, exp));
  if (!timingSafeEqual(expected, Buffer.from(match[2]))) return "invalid";
  return exp * 1000 > now ? "valid" : "expired";
}

/** A URL (absolute or relative, perhaps with a query or a #fragment) carrying the token. */
export function withToken(url: string, token: string): string {
  const hash = url.indexOf("#");
  const [path, fragment] = hash < 0 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  return `${path}${path.includes("?") ? "&" : "?"}${TOKEN_PARAM}=${token}${fragment}`;
}

/** Every URI of an HLS playlist (lines, and URI="..." attributes of tags) carrying the token. */
export function playlistWithToken(playlist: string, token: string): string {
  return playlist
    .split("\n")
    .map((line) => {
      if (line.startsWith("#")) return line.replace(/URI="([^"]+)"/g, (_, uri: string) => `URI="${withToken(uri, token)}"`);
      return line.trim() ? withToken(line.trim(), token) : line;
    })
    .join("\n");
}

/** A WebVTT track whose cues name files (seek-preview sprites) with the token on each. */
export function vttWithToken(vtt: string, token: string): string {
  return vtt.replace(/^([^\s#][^\s]*\.(?:jpg|png|webp))(#\S*)?$/gm, (_, file: string, fragment = "") => withToken(file + fragment, token));
}
