import type { ObjectStore } from "@/lib/storage";

/**
 * Where a media node puts live HLS and recordings: the deployment's object store
 * itself (S3, or the local disk it shares with the app under `npm start`), or the
 * app's internal API (AppClient) for a node with neither.
 */
export type MediaStore = Pick<ObjectStore, "write" | "removePrefix">;
