import { Readable } from "node:stream";
import { ApiRequestError, call, RawBody, type Transport } from "@/lib/api/client";
import {
  mediaNodeOperations as ops,
  type Heartbeat,
  type HeartbeatReply,
  type IngestProtocol,
  type NodeBeat,
  type NodeBeatReply,
  type PublishGrant,
  type SessionEvent,
} from "@/lib/media-node-protocol";
import type { MediaStore } from "./media-store";

/** The app no longer counts this node as the session's: it must stop writing and let the publisher go. */
export class Fenced extends Error {}

/**
 * How a media node talks to the app: the node's end of the media node <-> app protocol
 * (lib/media-node-protocol.ts), called through the app's typed client (lib/api/client.ts, which
 * parses each reply with the protocol's schema), authenticated with the deployment's MEDIA_SECRET.
 * A media node on another machine only needs APP_URL and MEDIA_SECRET (and S3_* to write to the
 * bucket itself; without them its media goes through the app: this is also a MediaStore).
 */
export class AppClient implements MediaStore {
  private readonly transport: Transport;

  constructor(appUrl: string, secret: string) {
    // A call the app does not answer in 10 s fails; the caller's loop tries again.
    this.transport = { baseUrl: appUrl, headers: { "x-media-secret": secret }, timeoutMs: 10_000 };
  }

  /** The grant, or the reason the app refuses this publish. */
  async publish(streamKey: string, nodeId: string, protocol: IngestProtocol): Promise<PublishGrant | { refused: string }> {
    try {
      return await call(ops.authorizePublish, { body: { streamKey, nodeId, protocol } }, this.transport);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 403) return { refused: err.messages[0] };
      throw err;
    }
  }

  heartbeat(beat: Heartbeat): Promise<HeartbeatReply> {
    return call(ops.mediaHeartbeat, { body: beat }, this.transport);
  }

  async event(event: SessionEvent): Promise<void> {
    try {
      await call(ops.mediaEvent, { body: event }, this.transport);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 409) throw new Fenced(`session ${event.sessionId} (epoch ${event.epoch}) is no longer this node's`);
      throw err;
    }
  }

  nodeBeat(beat: NodeBeat): Promise<NodeBeatReply> {
    return call(ops.mediaNodeBeat, { body: beat }, this.transport);
  }

  async write(key: string, body: Readable): Promise<number> {
    let size = 0;
    body.on("data", (chunk: Buffer) => (size += chunk.length));
    await call(
      ops.storeMediaObject,
      { query: { key }, body: new RawBody(Readable.toWeb(body) as ReadableStream<Uint8Array>, "application/octet-stream") },
      this.transport,
    );
    return size;
  }

  removePrefix(prefix: string): Promise<void> {
    return call(ops.removeMediaObjects, { query: { prefix } }, this.transport);
  }
}
