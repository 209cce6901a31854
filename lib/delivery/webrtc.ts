import type http from "node:http";
import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { mediaNodes } from "@/db/schema";
import { config } from "@/lib/config";
import { publishCheck } from "@/lib/live/ingest";
import { admitViewer } from "@/lib/access/gate";
import { ingestNodes, liveNodeOf } from "@/lib/live/nodes";
import { streamByPlayback } from "./content";
import { NodeViewerRequest } from "./reply";

/**
 * WebRTC signalling at /webrtc, Livepeer's paths: POST /webrtc/<stream key> (or POST /webrtc with
 * `Authorization: Bearer <stream key>`, as OBS's WHIP output sends it) with an SDP offer publishes
 * (WHIP); the answer's Location (/webrtc/session/<ref>) is DELETEd to stop. The offer is checked
 * against the key's stream here (unknown 404, suspended 403, live already 409) and handed to the
 * least loaded media node that takes WebRTC (media-node/whip.ts), which answers it. POST
 * /webrtc/<playback id> (WHEP) admits the viewer by the stream's playback policy (as HLS does:
 * tokens, JWTs, access keys, allowed origins) and hands the offer to the node holding the
 * broadcast, which forwards a WebRTC publish's media to the viewer as it arrives; a stream not
 * live over WebRTC answers 406, on which Livepeer's player plays HLS.
 */
const WEBRTC_PATH = /^\/webrtc(\/|\?|$)/;
export const isWebrtcPath = (url: string) => WEBRTC_PATH.test(url);

const MAX_OFFER_BYTES = 64 * 1024;
const NODE_ANSWERS_WITHIN_MS = 10_000;

/** Players and publishers on other sites (the browser's Broadcast and Player components) send SDP and tokens, and read Location. */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, DELETE, HEAD, OPTIONS",
  "access-control-allow-headers": "content-type, authorization, livepeer-jwt, livepeer-access-key",
  "access-control-expose-headers": "location, link, playhead-utc",
  "cache-control": "no-store",
};

export function webrtcSignal(req: http.IncomingMessage, res: http.ServerResponse): void {
  answer(req, res).catch((err: Error) => {
    console.error(`[webrtc] ${req.method} ${(req.url ?? "").split("/").slice(0, 2).join("/")}:`, err.message);
    if (!res.headersSent) say(res, 502, "the media node did not answer: try again");
  });
}

function say(res: http.ServerResponse, status: number, message?: string, headers: Record<string, string> = {}) {
  const body = message === undefined ? "" : JSON.stringify({ errors: [message] });
  res
    .writeHead(status, { ...CORS, ...(body ? { "content-type": "application/json" } : {}), "content-length": String(Buffer.byteLength(body)), ...headers })
    .end(body);
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const [, , id, ...rest] = (req.url ?? "/").split("?")[0].split("/");
  if (req.method === "OPTIONS") return say(res, 204);
  if (id === "session" && rest.length === 1) {
    if (req.method !== "DELETE") return say(res, 405, "DELETE ends this session", { allow: "DELETE, OPTIONS" });
    return (await endSession(rest[0])) ? say(res, 200) : say(res, 404, "no such session");
  }
  if (rest.length) return say(res, 404, "not found");
  // Livepeer's clients HEAD the URL first, following redirects to the host that answers it.
  if (req.method === "HEAD") return say(res, 200);
  if (req.method !== "POST") return say(res, 405, "POST an SDP offer here", { allow: "POST, HEAD, OPTIONS" });

  const key = id ? decodeURIComponent(id) : /^Bearer (\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!key) return say(res, 401, "the stream key is needed: POST /webrtc/<stream key>, or Authorization: Bearer <stream key>");
  if (!/^application\/sdp\b/i.test(req.headers["content-type"] ?? "")) return say(res, 415, "the offer must be sent as application/sdp");
  const offer = await bounded(req, MAX_OFFER_BYTES);
  if (offer === undefined) return say(res, 413, `the offer is larger than ${MAX_OFFER_BYTES / 1024} KB`);
  if (!offer.startsWith("v=0")) return say(res, 400, "the body is not an SDP offer");

  const check = await publishCheck(key);
  if (!("refused" in check)) {
    const node = (await ingestNodes()).find((n) => n.webrtcUrl);
    if (!node) return say(res, 503, "no media node takes WebRTC publishes now: try again, or publish over RTMP", { "retry-after": "5" });
    return handOn(res, { id: node.id, webrtcUrl: node.webrtcUrl! }, "whip", key, offer);
  }
  if (!check.unknown) return say(res, check.refused === "stream is already live" ? 409 : 403, check.refused);
  const stream = await streamByPlayback(key);
  if (!stream) return say(res, 404, "no stream has this key or playback id");

  // WHEP: a viewer, admitted by the stream's playback policy as HLS viewers are.
  const admission = await admitViewer(new NodeViewerRequest(req), { ...stream, playbackType: "live" });
  if (!admission.ok) {
    const { status, headers, body } = admission.reply;
    return void res.writeHead(status, { ...headers, ...CORS }).end(body);
  }
  const live = await liveNodeOf(stream.id);
  if (!live?.node.webrtcUrl) return say(res, 406, "this stream is not live over WebRTC: play its HLS");
  return handOn(res, { id: live.node.id, webrtcUrl: live.node.webrtcUrl }, "whep", live.streamKey, offer);
}

/** Hands an offer to a node's signalling (media-node/whip.ts) and its answer back, with the Location that ends the session. */
async function handOn(res: http.ServerResponse, node: { id: string; webrtcUrl: string }, route: "whip" | "whep", key: string, offer: string) {
  const reply = await fetch(`${node.webrtcUrl}/${route}/${encodeURIComponent(key)}`, {
    method: "POST",
    headers: { "content-type": "application/sdp", "x-media-secret": config().MEDIA_SECRET! },
    body: offer,
    signal: AbortSignal.timeout(NODE_ANSWERS_WITHIN_MS),
  });
  const text = await reply.text();
  if (reply.status === 406 || reply.status === 400) {
    return say(res, reply.status, route === "whep" && reply.status === 406 ? "this stream is not live over WebRTC: play its HLS" : text);
  }
  const session = reply.headers.get("x-session-id");
  if (reply.status !== 201 || !session) throw new Error(`media node ${node.id} answered ${reply.status}`);
  const ref = `${Buffer.from(node.id).toString("base64url")}.${session}`;
  res
    .writeHead(201, { ...CORS, "content-type": "application/sdp", "content-length": String(Buffer.byteLength(text)), location: `/webrtc/session/${ref}` })
    .end(text);
}

/** Ends the session a Location names, on the node that holds it; false when there is none. */
async function endSession(ref: string): Promise<boolean> {
  const [node64, session] = ref.split(".");
  if (!node64 || !session) return false;
  const [node] = await db()
    .select()
    .from(mediaNodes)
    .where(eq(mediaNodes.id, Buffer.from(node64, "base64url").toString()));
  if (!node?.webrtcUrl) return false;
  const reply = await fetch(`${node.webrtcUrl}/whip/${encodeURIComponent(session)}`, {
    method: "DELETE",
    headers: { "x-media-secret": config().MEDIA_SECRET! },
    signal: AbortSignal.timeout(NODE_ANSWERS_WITHIN_MS),
  });
  return reply.status === 204;
}

/** The request's body as text, or undefined past `max` bytes (the rest is left to the front to drop). */
async function bounded(req: http.IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
