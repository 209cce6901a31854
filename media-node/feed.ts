import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { NmsBroadcast } from "node-media-server/src/core/context.js";
import BaseSession from "node-media-server/src/session/base_session.js";

/** A reader's input: its URL for ffmpeg, and where on the broadcast's clock its media begins. */
export interface FeedInput {
  /** `-f flv -i <url>` */
  url: string;
  /** Timestamp (ms, the broadcast's clock) of the first audio or video the reader was sent: its media time 0. */
  startMs?: number;
}

const FLV_AUDIO = 8;
const FLV_VIDEO = 9;
const AAC = 10;
const AVC = 7;

/**
 * The timestamp (ms) of an FLV tag of audio or video frames (node-media-server sends one tag
 * per chunk), else undefined: codec headers carry a timestamp too, that of the publish's start.
 */
export function flvMediaTime(chunk: Buffer): number | undefined {
  if (chunk.length < 13 || (chunk[0] !== FLV_AUDIO && chunk[0] !== FLV_VIDEO)) return undefined;
  const [head, packetType] = [chunk[11], chunk[12]];
  if (chunk[0] === FLV_AUDIO && head >> 4 === AAC && packetType === 0) return undefined;
  // AVC's sequence header, or enhanced RTMP's (HEVC, AV1…) sequence start
  if (chunk[0] === FLV_VIDEO && (head & 0x80 ? (head & 0x0f) === 0 : (head & 0x0f) === AVC && packetType === 0)) return undefined;
  return chunk[7] * 2 ** 24 + (chunk[4] << 16) + (chunk[5] << 8) + chunk[6];
}

/**
 * For an FLV tag of H.264 frames, whether its frame is shown at another time than it is decoded
 * (a composition time offset: the stream has B-frames); undefined for any other tag.
 */
export function flvReorders(chunk: Buffer): boolean | undefined {
  if (chunk.length < 16 || chunk[0] !== FLV_VIDEO) return undefined;
  const [head, packetType] = [chunk[11], chunk[12]];
  if (head & 0x80 || (head & 0x0f) !== AVC || packetType !== 1) return undefined;
  return chunk.readIntBE(13, 3) !== 0;
}

/** How many H.264 frames are looked at before a broadcast is said to have no B-frames. */
const FRAMES_TO_JUDGE = 60;

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
 * so readers finish their files. It knows the broadcast's media clock (the newest
 * timestamp sent) and where each reader's media began: how far a reader's output
 * trails what the encoder sent.
 */
export class Feed extends BaseSession {
  private held: Buffer[] | undefined = [];
  private heldBytes = 0;
  private readonly readers = new Map<net.Socket, FeedInput>();
  private readonly listeners = new Set<net.Server>();
  private closed = false;
  /** The newest audio or video timestamp the encoder sent (ms). */
  private newestMs?: number;
  /** H.264 frames seen, and whether any was reordered (B-frames). */
  private h264Frames = 0;
  private reordered = false;

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
    // The latest, not the greatest: a publisher that restarts its clock starts it again.
    const at = flvMediaTime(chunk);
    if (at !== undefined) this.newestMs = at;
    const reorders = flvReorders(chunk);
    if (reorders !== undefined) {
      this.h264Frames++;
      this.reordered ||= reorders;
    }
    for (const [reader, input] of this.readers) {
      if (!reader.writable) continue;
      reader.write(chunk);
      input.startMs ??= at;
    }
  };

  /** Whether the broadcast is H.264 without B-frames (none in its first FRAMES_TO_JUDGE frames): WebRTC viewers can take it as it is. */
  get h264WithoutBFrames(): boolean {
    return this.h264Frames >= FRAMES_TO_JUDGE && !this.reordered;
  }

  /** The broadcast's media clock: the newest audio or video timestamp the encoder sent (ms). */
  get mediaMs(): number | undefined {
    return this.newestMs;
  }

  /**
   * ffmpeg's input for one reader (`-f flv -i <this>`): a socket that takes one
   * connection. `fromStart`: the whole broadcast while it is held (a restarted
   * recorder must not append the beginning twice, so it asks for the live edge).
   */
  input(fromStart: boolean): string {
    return this.open(fromStart).url;
  }

  /** input(), and where on the broadcast's clock the reader's media begins once it connected. */
  open(fromStart: boolean): FeedInput {
    const socketPath = this.dir.nextPath();
    const input: FeedInput = { url: `unix:${socketPath}` };
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
      for (const chunk of fromStart && this.held ? this.held : this.joinNow()) {
        socket.write(this.fileHeaderAsItIs(chunk));
        input.startMs ??= flvMediaTime(chunk);
      }
      this.readers.set(socket, input);
    });
    // listen() binds synchronously: the socket exists before ffmpeg starts.
    server.listen(socketPath);
    this.listeners.add(server);
    return input;
  }

  /**
   * node-media-server's FLV file header says "audio and video" whatever the broadcast holds. A
   * reader (ffmpeg) told of audio that never comes waits for it before writing anything: a
   * broadcast of video alone (a WebRTC publish without a microphone, an encoder without sound)
   * never went live. Readers connect once the broadcast's headers are in (node.ts), so the file
   * header says audio only when there is some, as the ladder's choice of streams does.
   */
  private fileHeaderAsItIs(chunk: Buffer): Buffer {
    const isFileHeader = chunk.length === 13 && chunk[0] === 0x46 && chunk[1] === 0x4c && chunk[2] === 0x56;
    if (!isFileHeader || this.broadcast.flvAudioHeader) return chunk;
    const header = Buffer.from(chunk);
    header[4] &= ~0x04;
    return header;
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

  /**
   * Ends every reader's input. A field, not a method: node-media-server's BaseSession defines
   * close as an instance field, which would shadow a method, and close() would do nothing.
   */
  override close = () => {
    if (this.closed) return;
    this.closed = true;
    this.release();
    for (const server of this.listeners) server.close();
    this.listeners.clear();
    for (const reader of this.readers.keys()) reader.end();
    this.broadcast.donePlay(this);
  };
}
