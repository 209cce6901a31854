import type http from "node:http";
import { assetFiles } from "./assets";
import { ipfsGateway } from "./ipfs";
import { liveHls } from "./live";
import { recordingFiles } from "./recordings";
import { countServed } from "./metrics";
import { json, NodeViewerRequest, notFound, preflight, send, type Reply, type ViewerRequest } from "./reply";
import { plain, share, sharedAnswer, sharedGeneration } from "./shared";
import { countViewer } from "./viewers";

export { followViewerChanges } from "./content";
export { registerDeliveryMetrics } from "./metrics";
export { startViewerReports } from "./viewers";

/** Each viewer path: its first segment, and what answers the rest (the id, then what follows it). */
const ROUTES: Record<string, (req: ViewerRequest, id: string, rest: string[]) => Promise<Reply>> = {
  hls: liveHls,
  asset: assetFiles,
  recordings: recordingFiles,
  ipfs: (req, cid, rest) => (rest.length ? Promise.resolve(notFound()) : ipfsGateway(req, cid)),
};

const VIEWER_PATH = /^\/(hls|asset|recordings|ipfs)\//;

/** Whether a path is the viewer plane's: the launcher answers it here, before Next. */
export const isViewerPath = (path: string) => VIEWER_PATH.test(path);

/**
 * The delivery plane: what players and viewers fetch (live and recorded HLS, an asset's HLS and
 * files, the IPFS gateway), answered by the launcher's HTTP server itself, in front of Next.js:
 * no app-route pipeline, no Web Request or Response per request, content read from memory
 * (lib/delivery/content.ts), files streamed from the store with ranges and validators.
 */
export function deliver(req: http.IncomingMessage, res: http.ServerResponse): void {
  const request = new NodeViewerRequest(req);
  // What every viewer of the path gets alike, answered a moment ago (lib/delivery/shared.ts): at
  // once, without a promise.
  const now = Date.now();
  const alike = plain(req);
  const url = req.url ?? "/";
  const shared = alike ? sharedAnswer(url, now) : undefined;
  if (shared) return void served(request, res, shared);
  void answered(request, res, alike ? url : undefined, now);
}

/** `alike`: the URL whose plain requests all get the answer, when its admission says so. */
async function answered(request: ViewerRequest, res: http.ServerResponse, alike: string | undefined, now: number): Promise<void> {
  const since = sharedGeneration();
  let reply: Reply;
  try {
    reply = await answer(request);
  } catch (err) {
    console.error(`[delivery] ${request.method} ${request.path}:`, err);
    reply = json(500, { errors: ["the server could not answer: try again"] });
  }
  if (alike) share(alike, reply, now, since);
  await served(request, res, reply);
}

function served(request: ViewerRequest, res: http.ServerResponse, reply: Reply): Promise<void> | undefined {
  if (reply.viewerOf) countViewer(reply.viewerOf, request);
  if (request.method === "HEAD" && reply.body !== undefined) {
    // The length the body would have had, without it.
    return send(res, { status: reply.status, headers: { ...reply.headers, "content-length": String(Buffer.byteLength(reply.body)) } });
  }
  if (request.method === "GET") {
    // A body in memory is written whole at once; a streamed one is counted once it was sent whole.
    if (!reply.open) countServed(request.path, reply.body === undefined ? 0 : Buffer.byteLength(reply.body));
    else res.once("finish", () => countServed(request.path, Number(reply.headers["content-length"] ?? 0)));
  }
  return send(res, reply);
}

async function answer(req: ViewerRequest): Promise<Reply> {
  if (req.method === "OPTIONS") return preflight();
  if (req.method !== "GET" && req.method !== "HEAD")
    return json(405, { errors: [`${req.method} is not served here: viewers GET`] }, { allow: "GET, HEAD, OPTIONS" });
  const [, route, id, ...rest] = req.path.split("/").map(decodeURIComponent);
  const handler = ROUTES[route];
  if (!handler || !id || rest.some((part) => !part)) return notFound();
  return handler(req, id, rest);
}
