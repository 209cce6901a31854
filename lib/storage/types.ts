import type { Readable } from "node:stream";

export interface ObjectInfo {
  size: number;
  modifiedAt: Date;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Something with a size that can be read from an offset: a file, an object in a store. */
export interface RangedSource extends ObjectInfo {
  open(range: ByteRange): Promise<Readable>;
}

/**
 * Where uploads, asset media and exports live. Keys are slash-separated paths
 * ("assets/<id>/source"). A write becomes visible only once complete, so readers
 * never see half an object.
 */
export interface ObjectStore {
  readonly kind: "local" | "s3";
  /** Streams the body into the object (never buffering it whole); resolves with its size. */
  write(key: string, body: Readable, opts?: { contentType?: string }): Promise<number>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<ObjectInfo | undefined>;
  /**
   * Removes what writes to `key` that never completed left behind (a process
   * killed mid-write), when last touched before `olderThan`.
   */
  removeUnfinished(key: string, olderThan: Date): Promise<void>;
  /** Removes every object whose key starts with the prefix. */
  removePrefix(prefix: string): Promise<void>;
  /** The object as a file on this machine, when the store is local disk. */
  localPath(key: string): string | undefined;
  /** A path or URL that ffmpeg and ffprobe can read (and seek in) for a while. */
  mediaInput(key: string): Promise<string>;
  /** A PUT URL pre-signed by the store itself; undefined when the app signs its own (local disk). */
  presignedPut(key: string, ttlS: number): Promise<string | undefined>;
}
