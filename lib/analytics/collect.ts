import type http from "node:http";
import { BodyTooLarge, readCapped } from "@/lib/bounded-body";
import { db } from "@/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/lib/rate-limits/address";
import { deviceOf, placeOf } from "./audience";
import { Beacon } from "./schema";
import { ViewWriter } from "./writer";

/** Where players send beacons: answered by the launcher's front, never by Next.js (the most frequent POST there is). */
export const BEACON_PATH = "/api/data/views/beacon";
export const isBeaconPath = (url: string) => url === BEACON_PATH || url.startsWith(`${BEACON_PATH}?`);

/** A beacon is a few hundred bytes; a body past this is not one. */
const MAX_BEACON_BYTES = 4096;

/**
 * CORS open to every site (players are embedded anywhere, viewers have no key). `text/plain` is
 * taken as JSON too: it is what `navigator.sendBeacon` can send to another origin without a
 * preflight (its application/json is refused by browsers).
 */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "86400",
};

const writer = new ViewWriter();
/** Until the beacons answered so far are in PostgreSQL (for a stop). */
export const beaconsWritten = () => writer.settled();

/**
 * POST /api/data/views/beacon: one view's state (lib/analytics/schema.ts Beacon). 204 once
 * stored; 400 for what is not JSON, 413 past 4 KiB, 415 for another content type, 422 for a
 * field out of bounds or unknown, 404 for a playback id that is no stream or asset. The viewer's
 * address decides the rate limit and the country (through GEOIP_DATABASE) and is never stored.
 */
export function collectBeacon(req: http.IncomingMessage, res: http.ServerResponse): void {
  void answer(req).then(
    ({ status, errors }) => {
      const headers = { ...CORS, "cache-control": "no-store" };
      if (!errors) return void res.writeHead(status, headers).end();
      res.writeHead(status, { ...headers, "content-type": "application/json" }).end(JSON.stringify({ errors }));
    },
    (err) => {
      // The database is away: the player may send it again (its totals lose nothing by waiting).
      console.error("[analytics] a beacon could not be stored:", (err as Error).message);
      res
        .writeHead(503, { ...CORS, "content-type": "application/json", "retry-after": "5" })
        .end(JSON.stringify({ errors: ["beacons cannot be stored now: try again"] }));
    },
  );
}

async function answer(req: http.IncomingMessage): Promise<{ status: number; errors?: string[] }> {
  if (req.method === "OPTIONS") return { status: 204 };
  if (req.method !== "POST") return { status: 405, errors: ["beacons are POSTed"] };
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && type !== "text/plain") return { status: 415, errors: ["content-type must be application/json or text/plain (JSON)"] };
  let body: Buffer;
  try {
    body = await readCapped(req, MAX_BEACON_BYTES, "a beacon", req.headers["content-length"]);
  } catch (err) {
    if (err instanceof BodyTooLarge) return { status: 413, errors: [err.message] };
    return { status: 400, errors: ["the body could not be read"] };
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return { status: 400, errors: ["the body is not JSON"] };
  }
  const parsed = Beacon.safeParse(json);
  if (!parsed.success) return { status: 422, errors: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "body"}: ${i.message}`) };
  const beacon = parsed.data;
  const content = await contentOf(beacon.playbackId);
  if (!content) return { status: 404, errors: [`no stream or asset has the playback id ${beacon.playbackId}`] };
  const address = String(req.headers[CLIENT_ADDRESS_HEADER] ?? "");
  const place = placeOf(address, (name) => headerValue(req.headers[name.toLowerCase()]));
  await writer.write({ beacon, ...content, ...deviceOf(req.headers["user-agent"] ?? ""), ...place, at: Date.now() });
  return { status: 204 };
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Owners of playback ids by id: a playback id never changes hands, so an owner found is kept; an unknown id is asked again after a while. */
const owners = new Map<string, { owner?: Owner; until: number }>();
const OWNERS_MAX = 100_000;
const UNKNOWN_FOR_MS = 10_000;
interface Owner {
  userId: string;
  contentId: string;
}

/**
 * Whose content a playback id is: a stream's or an asset's, deleted or taken down included (the
 * views under way when it went are still reported, their errors most of all).
 */
async function contentOf(playbackId: string, now = Date.now()): Promise<Owner | undefined> {
  const known = owners.get(playbackId);
  if (known && (known.owner || known.until > now)) return known.owner;
  const [row] = await db().$client<Owner[]>`
    SELECT user_id AS "userId", id AS "contentId" FROM streams WHERE playback_id = ${playbackId}
    UNION ALL SELECT user_id, id FROM assets WHERE playback_id = ${playbackId} LIMIT 1`;
  if (owners.size >= OWNERS_MAX) owners.delete(owners.keys().next().value!);
  owners.set(playbackId, { owner: row, until: now + UNKNOWN_FOR_MS });
  return row;
}
