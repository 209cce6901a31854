import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

export interface Digest {
  size: number;
  md5: string;
  sha256: string;
}

/**
 * Passes bytes through while hashing them (md5 and sha256, the algorithms the
 * API reports) and counting them, so a file is hashed as it is received rather
 * than read again.
 */
export class Hasher extends Transform {
  private readonly md5 = createHash("md5");
  private readonly sha256 = createHash("sha256");
  /** Not `size`: the AWS SDK takes a body's `size` for its length (0 here, when the upload starts). */
  private received = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.received += chunk.length;
    this.md5.update(chunk);
    this.sha256.update(chunk);
    done(null, chunk);
  }

  /** Valid once the stream has ended. */
  digest(): Digest {
    return { size: this.received, md5: this.md5.digest("hex"), sha256: this.sha256.digest("hex") };
  }
}

export const hashList = (d: Digest) => [
  { hash: d.md5, algorithm: "md5" },
  { hash: d.sha256, algorithm: "sha256" },
];
