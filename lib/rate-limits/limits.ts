import { config } from "@/lib/config";
import type { Limit } from "./store";

/** The limits of RATE_LIMIT_* (per minute; 0 turns one off). Names say, in refusals, what was counted. */
export function limits() {
  const c = config();
  return {
    apiKey: { name: "API key", perMinute: c.RATE_LIMIT_API_PER_MIN },
    address: { name: "address", perMinute: c.RATE_LIMIT_IP_PER_MIN },
    signInAddress: { name: "failed sign-ins from this address", perMinute: c.RATE_LIMIT_AUTH_PER_MIN },
    signInEmail: { name: "failed sign-ins for this email", perMinute: c.RATE_LIMIT_AUTH_PER_MIN },
    signUpAddress: { name: "sign-ups from this address", perMinute: c.RATE_LIMIT_AUTH_PER_MIN },
    playback: { name: "playback requests from this address", perMinute: c.RATE_LIMIT_PLAYBACK_PER_MIN },
    beacons: { name: "viewer beacons from this address", perMinute: c.RATE_LIMIT_BEACONS_PER_MIN },
  } satisfies Record<string, Limit>;
}

export const refusalMessage = (name: string, limit: number, resetS: number) =>
  `too many requests (${name}: at most ${limit} a minute); try again in ${resetS} s`;
