// node-media-server ships no types; these cover what the media node uses.
declare module "node-media-server" {
  export interface PublisherLink {
    readonly destroyed: boolean;
    destroy(): void;
    once(event: "close", listener: () => void): unknown;
  }
  export interface NmsSession {
    id: string;
    ip: string;
    streamPath: string;
    streamName: string;
    inBytes: number;
    videoCodec: number;
    audioCodec: number;
    videoDatarate: number;
    /** The publisher's connection: an RTMP socket, or a WebRTC publish's link (media-node/whip.ts). */
    socket: PublisherLink;
  }
  export default class NodeMediaServer {
    constructor(config: Record<string, unknown>);
    on(event: "prePublish" | "postPublish" | "donePublish", listener: (session: NmsSession) => void): void;
    /** The RTMP listener alone (run() also starts NMS's JSON store and its other servers). */
    rtmpServer: { tcpServer: import("node:net").Server; run(): void };
    stop(): Promise<void>;
  }
}

declare module "node-media-server/src/core/context.js" {
  /** A stream path's broadcast: its publisher, its players, and what a joining player is sent first. */
  export interface NmsBroadcast {
    streamPath: string;
    publisher: unknown;
    publishGraceMs: number;
    flvHeader: Buffer;
    flvMetaData: Buffer | null;
    flvAudioHeader: Buffer | null;
    flvVideoHeader: Buffer | null;
    flvGopCache: Set<Buffer> | null;
    broadcastMessage: (packet: { codec_type: number; flags: number; dts: number; size: number }) => void;
    postPublish(session: import("node-media-server/src/session/base_session.js").default): string | null;
    donePublish(session: import("node-media-server/src/session/base_session.js").default): void;
    postPlay(session: import("node-media-server/src/session/base_session.js").default): string | null;
    donePlay(session: import("node-media-server/src/session/base_session.js").default): void;
  }
  const Context: { broadcasts: Map<string, NmsBroadcast> };
  export default Context;
}

declare module "node-media-server/src/session/base_session.js" {
  /** A player or publisher of a broadcast; players with protocol "flv" receive FLV tags through sendBuffer. */
  export default class BaseSession {
    id: string;
    ip: string;
    protocol: string;
    streamApp: string;
    streamName: string;
    streamPath: string;
    inBytes: number;
    sendBuffer: (chunk: Buffer) => void;
    /** An instance field (a no-op here): a subclass's close() method would be shadowed by it, so override it as a field too. */
    close: () => void;
  }
}

declare module "node-media-server/src/core/logger.js" {
  const logger: { level: string };
  export default logger;
}

declare module "node-media-server/src/protocol/flv.js" {
  /** FLV tags parsed into packets, as node-media-server's HTTP-FLV publisher does. */
  export default class Flv {
    onPacketCallback: (packet: { codec_type: number; flags: number; dts: number; size: number }) => void;
    /** An error message, or null. */
    parserData(buffer: Buffer): string | null;
  }
}

declare module "node-media-server/src/server/broadcast_server.js" {
  /** A stream path's broadcast (as Context.broadcasts holds them). */
  const BroadcastServer: new (streamPath: string) => import("node-media-server/src/core/context.js").NmsBroadcast;
  export default BroadcastServer;
}
