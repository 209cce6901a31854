import { Readable } from "node:stream";
import { HeartbeatReply, mediaNodeOperations as ops, NodeBeatReply, PublishGrant, type Heartbeat, type NodeBeat, type SessionEvent } from "@/lib/media-node-protocol";
import type { MediaStore } from "./media-store";

/** The app no longer counts this node as the session's: it must stop writing and let the publisher go. */
export class Fenced extends Error {}

/**
 * How a media node talks to the app: the node's end of the media node <-> app protocol
 * (lib/media-node-protocol.ts), authenticated with the deployment's MEDIA_SECRET. A media
 * node on another machine only needs APP_URL and MEDIA_SECRET (and S3_* to write to the
 * bucket itself; without them its media goes through the app: this is also a MediaStore).
 */
export class AppClient implements MediaStore {
  constructor(
    private readonly appUrl: string,
    private readonly secret: string,
  ) {}

  /** `query`: already encoded. */
  private request(op: { method: string; path: string }, init: { json?: unknown; body?: Readable; query?: string } = {}): Promise<Response> {
    return fetch(`${this.appUrl}/api${op.path}${init.query ? `?${init.query}` : ""}`, {
      method: op.method,
      headers: {
        "x-media-secret": this.secret,
        ...(init.json !== undefined ? { "content-type": "application/json" } : { "content-type": "application/octet-stream" }),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body ? (Readable.toWeb(init.body) as ReadableStream) : undefined,
      signal: AbortSignal.timeout(10_000),
      ...(init.body ? { duplex: "half" } : {}),
    } as RequestInit);
  }

  private post = (op: { method: "POST"; path: string }, body: unknown) => this.request(op, { json: body });

  /** The grant, or the reason the app refuses this publish. */
  async publish(streamKey: string, nodeId: string): Promise<PublishGrant | { refused: string }> {
    const res = await this.post(ops.authorizePublish, { streamKey, nodeId });
    const body = await res.json();
    if (res.status === 403) return { refused: body.errors?.[0] ?? "refused" };
    if (!res.ok) throw new Error(`publish check failed: ${res.status} ${JSON.stringify(body)}`);
    return PublishGrant.parse(body);
  }

  async heartbeat(beat: Heartbeat): Promise<HeartbeatReply> {
    const res = await this.post(ops.mediaHeartbeat, beat);
    if (!res.ok) throw new Error(`heartbeat failed: ${res.status}`);
    return HeartbeatReply.parse(await res.json());
  }

  async event(event: SessionEvent): Promise<void> {
    const res = await this.post(ops.mediaEvent, event);
    if (res.status === 409) throw new Fenced(`session ${event.sessionId} (epoch ${event.epoch}) is no longer this node's`);
    if (!res.ok) throw new Error(`event ${event.kind} failed: ${res.status} ${await res.text()}`);
  }

  async nodeBeat(beat: NodeBeat): Promise<NodeBeatReply> {
    const res = await this.post(ops.mediaNodeBeat, beat);
    if (!res.ok) throw new Error(`node heartbeat failed: ${res.status}`);
    return NodeBeatReply.parse(await res.json());
  }

  async write(key: string, body: Readable): Promise<number> {
    let size = 0;
    body.on("data", (chunk: Buffer) => (size += chunk.length));
    const res = await this.request(ops.storeMediaObject, { body, query: `key=${encodeURIComponent(key)}` });
    if (!res.ok) throw new Error(`storing ${key} through the app failed: ${res.status} ${await res.text()}`);
    return size;
  }

  async removePrefix(prefix: string): Promise<void> {
    const res = await this.request(ops.removeMediaObjects, { query: `prefix=${encodeURIComponent(prefix)}` });
    if (!res.ok) throw new Error(`removing ${prefix} through the app failed: ${res.status}`);
  }
}
