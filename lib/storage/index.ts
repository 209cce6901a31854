import { config } from "@/lib/config";
import { LocalStore } from "./local";
import { S3Store } from "./s3";
import type { ObjectStore } from "./types";

export type { ObjectInfo, ObjectStore, ByteRange } from "./types";

let store: ObjectStore | undefined;

/**
 * The deployment's object store: S3-compatible when S3_* is configured, else
 * local disk under DATA_DIR/objects. Every process (app, job workers) uses the same one.
 */
export function objects(): ObjectStore {
  if (store) return store;
  const cfg = config();
  store = cfg.S3_BUCKET
    ? new S3Store({
        endpoint: cfg.S3_ENDPOINT!,
        bucket: cfg.S3_BUCKET,
        region: cfg.S3_REGION,
        accessKeyId: cfg.S3_ACCESS_KEY_ID!,
        secretAccessKey: cfg.S3_SECRET_ACCESS_KEY!,
        forcePathStyle: cfg.S3_FORCE_PATH_STYLE,
      })
    : new LocalStore(`${cfg.dataDir}/objects`);
  return store;
}
