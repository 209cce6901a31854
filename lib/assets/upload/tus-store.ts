import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { AbortMultipartUploadCommand, DeleteObjectsCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { FileStore } from "@tus/file-store";
import { S3Store, type MetadataValue } from "@tus/s3-store";
import type { DataStore, KvStore } from "@tus/server";
import { config } from "@/lib/config";

/**
 * A tus upload's id, and its key in the store: "tus/<assetId>.<128 random bits>".
 * The part after "tus/" is the last segment of its URL (its permission).
 */
const PREFIX = "tus/";
const UPLOAD_ID = /^tus\/([\w-]{1,64})\.[0-9a-f]{32}$/;

export const assetOfTusUpload = (uploadId: string): string | undefined => UPLOAD_ID.exec(uploadId)?.[1];

export const newTusUploadId = (assetId: string) => `${PREFIX}${assetId}.${randomBytes(16).toString("hex")}`;

/** The upload a URL's last segment names, if it can name one. */
export const tusUploadOfSegment = (segment: string): string | undefined => (assetOfTusUpload(`${PREFIX}${segment}`) ? `${PREFIX}${segment}` : undefined);

export const tusUrlSegment = (uploadId: string) => uploadId.slice(PREFIX.length);

/** What was stored of one upload: whether both its metadata and its bytes are there, and when it was last written. */
export interface StoredTusUpload {
  id: string;
  whole: boolean;
  modifiedAt: number;
}

/** Collects what a listing shows of each upload. */
class Listing {
  private readonly uploads = new Map<string, { metadata: boolean; bytes: boolean; modifiedAt: number }>();

  add(id: string, what: "metadata" | "bytes" | "tail", at = 0) {
    if (!assetOfTusUpload(id)) return;
    const upload = this.uploads.get(id) ?? { metadata: false, bytes: false, modifiedAt: 0 };
    if (what !== "tail") upload[what] = true;
    upload.modifiedAt = Math.max(upload.modifiedAt, at);
    this.uploads.set(id, upload);
  }

  list(): StoredTusUpload[] {
    return [...this.uploads].map(([id, u]) => ({ id, whole: u.metadata && u.bytes, modifiedAt: u.modifiedAt }));
  }
}

/**
 * Where tus uploads keep their bytes until they finish: the bucket when S3 is
 * configured (a multipart upload per tus upload, under tus/, so any app instance
 * can resume it), else DATA_DIR/tus (a file and its .json per upload). An
 * unfinished upload can be resumed for UPLOAD_URL_TTL_S after it was created
 * (the Upload-Expires it is told), unless another upload takes its asset over
 * after its lease lapsed.
 */
export interface TusUploads {
  readonly store: DataStore;
  /** Every upload with anything stored (under `prefix`), halves left by a crash mid-creation included. */
  list(prefix?: string): Promise<StoredTusUpload[]>;
  /** A finished upload's file. */
  read(uploadId: string): Promise<Readable>;
  /** Everything stored for the upload; nothing if it is already gone. */
  remove(uploadId: string): Promise<void>;
}

class LocalTusUploads implements TusUploads {
  readonly store: FileStore;

  constructor(private readonly dataDir: string) {
    fs.mkdirSync(path.join(dataDir, "tus"), { recursive: true });
    // Ids start with tus/: the files are DATA_DIR/tus/<id> and DATA_DIR/tus/<id>.json.
    this.store = new FileStore({ directory: dataDir, expirationPeriodInMilliseconds: config().UPLOAD_URL_TTL_S * 1000 });
  }

  private file = (uploadId: string) => path.join(this.dataDir, uploadId);

  async list(prefix = PREFIX): Promise<StoredTusUpload[]> {
    const names = await fs.promises.readdir(path.join(this.dataDir, "tus")).catch(() => []);
    const listing = new Listing();
    for (const name of names) {
      const id = `${PREFIX}${name.replace(/\.json$/, "")}`;
      if (!id.startsWith(prefix)) continue;
      const stat = await fs.promises.stat(path.join(this.dataDir, "tus", name)).catch(() => undefined);
      if (stat) listing.add(id, name.endsWith(".json") ? "metadata" : "bytes", stat.mtimeMs);
    }
    return listing.list();
  }

  async read(uploadId: string): Promise<Readable> {
    return fs.createReadStream(this.file(uploadId));
  }

  async remove(uploadId: string): Promise<void> {
    await fs.promises.rm(this.file(uploadId), { force: true });
    await fs.promises.rm(`${this.file(uploadId)}.json`, { force: true });
  }
}

/**
 * Nothing kept between requests: another instance may have written, finished or
 * removed the upload since (the store's default cache would answer from before).
 */
const NO_CACHE: KvStore<MetadataValue> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
};

/** @tus/s3-store: <id> is a multipart upload (then the file), <id>.info its metadata, <id>.part a tail under S3's 5 MiB part minimum. */
class S3TusUploads extends S3Store implements TusUploads {
  get store() {
    return this;
  }

  async list(prefix = PREFIX): Promise<StoredTusUpload[]> {
    const listing = new Listing();
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const { Key, LastModified } of page.Contents ?? []) {
        const [, id, suffix] = /^(.*?)(\.info|\.part)?$/.exec(Key!)!;
        // <id> itself is the finished file.
        listing.add(id, suffix === ".info" ? "metadata" : suffix === ".part" ? "tail" : "bytes", LastModified?.getTime());
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    // The bytes of an unfinished upload; without .info after a crash mid-creation.
    for (const upload of await this.multipartUploads(prefix)) listing.add(upload.key, "bytes", upload.initiated?.getTime());
    return listing.list();
  }

  private async multipartUploads(prefix: string) {
    const uploads: { key: string; uploadId: string; initiated?: Date }[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const u of page.Uploads ?? []) uploads.push({ key: u.Key!, uploadId: u.UploadId!, initiated: u.Initiated });
      if (!page.IsTruncated) return uploads;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /** Unlike the store's own remove, also what a crash mid-creation left (no .info to find the multipart upload by). */
  async remove(uploadId: string): Promise<void> {
    for (const upload of await this.multipartUploads(uploadId)) {
      if (upload.key === uploadId) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.key, UploadId: upload.uploadId }));
      }
    }
    const keys = [uploadId, this.infoKey(uploadId), this.partKey(uploadId, true)];
    await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
  }

  async read(uploadId: string): Promise<Readable> {
    return (await super.read(uploadId)) as Readable;
  }
}

let uploads: TusUploads | undefined;

export function tusUploads(): TusUploads {
  if (uploads) return uploads;
  const cfg = config();
  const expirationPeriodInMilliseconds = cfg.UPLOAD_URL_TTL_S * 1000;
  uploads = cfg.S3_BUCKET
    ? new S3TusUploads({
        expirationPeriodInMilliseconds,
        // The sweeper removes expired uploads itself: no expiry tags, which not every S3-compatible store takes.
        useTags: false,
        cache: NO_CACHE,
        s3ClientConfig: {
          bucket: cfg.S3_BUCKET,
          endpoint: cfg.S3_ENDPOINT,
          region: cfg.S3_REGION,
          forcePathStyle: cfg.S3_FORCE_PATH_STYLE,
          credentials: { accessKeyId: cfg.S3_ACCESS_KEY_ID!, secretAccessKey: cfg.S3_SECRET_ACCESS_KEY! },
          // As for the object store (lib/storage/s3.ts): no checksums S3-compatible stores may not take.
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        },
      })
    : new LocalTusUploads(cfg.dataDir);
  return uploads;
}

export const tusStore = (): DataStore => tusUploads().store;

/** Ends the asset's other tus uploads: another upload holds the asset now. */
export async function removeTusUploadsOf(assetId: string, except?: string): Promise<void> {
  for (const { id } of await tusUploads().list(`${PREFIX}${assetId}.`)) {
    if (id !== except) await tusUploads().remove(id);
  }
}
