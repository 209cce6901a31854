import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { NmsBroadcast } from "node-media-server/src/core/context.js";
import BaseSession from "node-media-server/src/session/base_session.js";

/** Beyond this, a broadcast's beginning is no longer held for readers that join late. */
const MAX_HELD_BYTES = 64 * 1024 * 1024;
/** ffmpeg connects to its input within moments of starting. */
const UNUSED_INPUT_MS = 30_000;

/**
 * Private Unix sockets for the node's own readers of its broadcasts (the
 * transcoder, the recorder, multistream pushes). Reading the node's RTMP would put
 * the stream key on their command lines, where any local user sees it (`ps`); a
 * socket in a directory only this user can enter names nothing secret.
 */
export class FeedDir {
  private count = 0;
  private constructor(readonly dir: string) {}

  /** Under the OS's temporary directory: local (sockets do not work on shared storage) and a short path. */
  static async create(): Promise<FeedDir> {
    return new FeedDir(await fs.promises.mkdtemp(path.join(os.tmpdir(), "castline-feeds-")));
  }

  nextPath(): string {
    return path.join(this.dir, `${++this.count}.sock`);
  }

  async remove() {
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * One broadcast as FLV for any number of readers: subscribed to the
 * node-media-server broadcast like one of its players, from the moment the
 * publish starts. Until release(), everything since that moment is held, so the
 * first transcoder and recorder get the whole broadcast however long the publish
 * check and their start-up took; readers that join later get the codec headers and
 * the current GOP, as RTMP players do. close() ends every reader's input (EOF),
 * so readers finish their files at once.
 */
export class Feed extends BaseSession {
  private held: Buffer[] | undefined = [];
  private heldBytes = 0;
  private readonly readers = new Set<net.Socket>();
  private readonly listeners = new Set<net.Server>();
  private closed = false;

  constructor(
    private readonly broadcast: NmsBroadcast,
    private readonly dir: FeedDir,
  ) {
    super();
    this.protocol = "flv";
    this.streamPath = broadcast.streamPath;
    // postPlay sends what a player joining now needs; nothing has been broadcast yet, so that is the start.
    broadcast.postPlay(this);
  }

  override sendBuffer = (chunk: Buffer) => {
    if (this.held) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      if (this.heldBytes > MAX_HELD_BYTES) this.release();
    }
    for (const reader of this.readers) if (reader.writable) reader.write(chunk);
  };

  /**
   * ffmpeg's input for one reader (`-f flv -i <this>`): a socket that takes one
   * connection. `fromStart`: the whole broadcast while it is held (a restarted
   * recorder must not append the beginning twice, so it asks for the live edge).
   */
  input(fromStart: boolean): string {
    const socketPath = this.dir.nextPath();
    const unused = () => {
      server.close();
      this.listeners.delete(server);
    };
    // A reader that died before connecting leaves no socket behind.
    const timer = setTimeout(unused, UNUSED_INPUT_MS).unref();
    const server = net.createServer((socket) => {
      clearTimeout(timer);
      unused();
      if (this.closed) return void socket.destroy();
      socket.on("error", () => socket.destroy()); // a reader that died
      socket.once("close", () => this.readers.delete(socket));
      for (const chunk of fromStart && this.held ? this.held : this.joinNow()) socket.write(chunk);
      this.readers.add(socket);
    });
    // listen() binds synchronously: the socket exists before ffmpeg starts.
    server.listen(socketPath);
    this.listeners.add(server);
    return `unix:${socketPath}`;
  }

  /** What a reader joining now needs first, as node-media-server gives its FLV players. */
  private joinNow(): Buffer[] {
    const b = this.broadcast;
    return [b.flvHeader, b.flvMetaData, b.flvAudioHeader, b.flvVideoHeader, ...(b.flvGopCache ?? [])].filter((c): c is Buffer => !!c);
  }

  /** The beginning is no longer needed (every reader that wanted it has it). */
  release() {
    this.held = undefined;
    this.heldBytes = 0;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.release();
    for (const server of this.listeners) server.close();
    this.listeners.clear();
    for (const reader of this.readers) reader.end();
    this.broadcast.donePlay(this);
  }
}
