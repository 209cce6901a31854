import { publicOrigin } from "@/lib/origin";
import { ingestNodes } from "./nodes";
import type { Ingest } from "./schema";

/**
 * Where encoders publish: one entry per healthy media node, least loaded first (overloaded
 * ones only when none is healthy)
 * (Livepeer's /api/ingest shape). A node without its own public host
 * (MEDIA_PUBLIC_HOST) is reached at the host viewers reach this deployment at
 * (PUBLIC_URL's, else the request's), on the node's RTMP port.
 */
export async function ingests(): Promise<Ingest[]> {
  const origin = publicOrigin();
  const host = new URL(origin).hostname;
  const nodes = await ingestNodes();
  return nodes.map((node) => ({
    base: origin,
    ingest: node.ingestUrl ?? `rtmp://${host}:${node.rtmpPort}/live`,
    playback: `${origin}/hls`,
  }));
}
