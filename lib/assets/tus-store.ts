import fs from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { config } from "@/lib/config";

/** "<assetId>.<128 random bits>": a tus upload's id, the last segment of its URL (its permission). */
const UPLOAD_ID = /^([\w-]{1,64})\.[0-9a-f]{32}$/;

export const assetOfTusUpload = (uploadId: string): string | undefined => UPLOAD_ID.exec(uploadId)?.[1];

const directory = () => path.join(config().dataDir, "tus");

export const tusUploadFile = (uploadId: string) => path.join(directory(), uploadId);

let store: FileStore | undefined;

/**
 * Where tus uploads keep their bytes until they finish: DATA_DIR/tus, a file and
 * its .json per upload. An unfinished upload can be resumed for UPLOAD_URL_TTL_S
 * after it was created (the Upload-Expires it is told), unless another upload
 * takes its asset over after its lease lapsed.
 */
export function tusStore(): FileStore {
  if (store) return store;
  fs.mkdirSync(directory(), { recursive: true });
  store = new FileStore({ directory: directory(), expirationPeriodInMilliseconds: config().UPLOAD_URL_TTL_S * 1000 });
  return store;
}

/** Every upload with anything on disk, including halves left by a crash mid-creation. */
export async function tusUploadIds(): Promise<string[]> {
  const names = await fs.promises.readdir(directory()).catch(() => []);
  return [...new Set(names.map((n) => n.replace(/\.json$/, "")).filter((n) => assetOfTusUpload(n)))];
}

export async function removeTusUpload(uploadId: string): Promise<void> {
  await fs.promises.rm(tusUploadFile(uploadId), { force: true });
  await fs.promises.rm(`${tusUploadFile(uploadId)}.json`, { force: true });
}

/** Ends the asset's other tus uploads: another upload holds the asset now. */
export async function removeTusUploadsOf(assetId: string, except?: string): Promise<void> {
  for (const id of await tusUploadIds()) {
    if (assetOfTusUpload(id) === assetId && id !== except) await removeTusUpload(id);
  }
}
