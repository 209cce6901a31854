import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ByteRange, ObjectInfo, ObjectStore } from "./types";

/** A write in progress: "<object file>.<12 hex digits>.part", renamed once complete. */
const PART = /\.[0-9a-f]{12}\.part$/;
const SAFE_KEY = /^[\w.-]+(\/[\w.-]+)*$/;

/** Objects as files under one folder; a write goes to a temporary name and is renamed when complete. */
export class LocalStore implements ObjectStore {
  readonly kind = "local";
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!SAFE_KEY.test(key) || key.split("/").some((part) => part === "." || part === "..")) {
      throw new Error(`unsafe object key: ${key}`);
    }
    return path.join(this.root, key);
  }

  async write(key: string, body: Readable): Promise<number> {
    const file = this.file(key);
    // A body that fails while the folder is made (a file that is not there) fails the write, not the process.
    let early: unknown;
    const onEarlyError = (err: unknown) => (early ??= err);
    body.once("error", onEarlyError);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    body.off("error", onEarlyError);
    if (early) throw early;
    const tmp = `${file}.${randomBytes(6).toString("hex")}.part`;
    try {
      await pipeline(body, fs.createWriteStream(tmp));
      const { size } = await fs.promises.stat(tmp);
      await fs.promises.rename(tmp, file);
      return size;
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const stream = fs.createReadStream(this.file(key), range);
    // Surface "no such object" here rather than as a stream error later.
    await new Promise<void>((resolve, reject) => stream.once("open", () => resolve()).once("error", reject));
    return stream;
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const stat = await fs.promises.stat(this.file(key)).catch(() => undefined);
    return stat?.isFile() ? { size: stat.size, modifiedAt: stat.mtime } : undefined;
  }

  async removeUnfinished(key: string, olderThan: Date): Promise<void> {
    const file = this.file(key);
    const names = await fs.promises.readdir(path.dirname(file)).catch(() => []);
    const unfinished = names.filter((n) => PART.test(n) && n.replace(PART, "") === path.basename(file));
    for (const name of unfinished) {
      const part = path.join(path.dirname(file), name);
      const stat = await fs.promises.stat(part).catch(() => undefined);
      if (stat && stat.mtime < olderThan) await fs.promises.rm(part, { force: true });
    }
  }

  async removePrefix(prefix: string): Promise<void> {
    await fs.promises.rm(this.file(prefix.replace(/\/$/, "")), { recursive: true, force: true });
  }

  localPath(key: string): string {
    return this.file(key);
  }

  async mediaInput(key: string): Promise<string> {
    return this.file(key);
  }

  async presignedPut(): Promise<undefined> {
    return undefined;
  }
}
