// node-media-server ships no types; these cover what the media node uses.
declare module "node-media-server" {
  export interface NmsSession {
    id: string;
    ip: string;
    streamPath: string;
    streamName: string;
    inBytes: number;
    videoCodec: number;
    audioCodec: number;
    videoFramerate: number;
    videoDatarate: number;
    socket: import("node:net").Socket;
  }
  export default class NodeMediaServer {
    constructor(config: Record<string, unknown>);
    on(event: "prePublish" | "postPublish" | "donePublish", listener: (session: NmsSession) => void): void;
    run(): Promise<void>;
    stop(): Promise<void>;
  }
}

declare module "node-media-server/src/core/context.js" {
  const Context: {
    broadcasts: Map<
      string,
      {
        publisher: unknown;
        publishGraceMs: number;
        flvAudioHeader: Buffer | null;
        flvVideoHeader: Buffer | null;
        broadcastMessage: (packet: { codec_type: number; flags: number; dts: number }) => void;
      }
    >;
  };
  export default Context;
}

declare module "node-media-server/src/core/logger.js" {
  const logger: { level: string };
  export default logger;
}
