"use client";

import type { Body, Uppy } from "@uppy/core";
import { useSyncExternalStore } from "react";
import { ApiRequestError } from "@/lib/client/api";
import type { UploadRequested } from "@/lib/assets/schema";
import { deleteAsset, requestUpload } from "@/lib/client/asset-hooks";
import { formatHttpStatus } from "@/lib/client/format";

/** Up to this size a file goes up in one PUT to a pre-signed URL; beyond it, resumably over tus. */
export const RESUMABLE_ABOVE_BYTES = 100 * 1024 * 1024;
/** One tus PATCH at most: a dropped connection costs no more than this, and proxies see bounded bodies. */
const TUS_CHUNK_BYTES = 50 * 1024 * 1024;
/** Speed is measured over at least this long and smoothed (half-life), so the number can be read. */
const SPEED_SAMPLE_MS = 500;
const SPEED_HALF_LIFE_MS = 3_000;

export type UploadState = "requesting" | "uploading" | "paused" | "uploaded" | "failed";

export interface Upload {
  key: string;
  name: string;
  size: number;
  /** Sent over tus: it can be paused, and a retry continues where it stopped. */
  resumable: boolean;
  state: UploadState;
  bytesUploaded: number;
  bytesPerSecond?: number;
  /** Known once the server has created the asset. */
  assetId?: string;
  errors?: string[];
}

type UploadMeta = { assetId: string; url: string; filename: string; filetype: string };
type Uploader = Uppy<UploadMeta, Body>;

interface Entry {
  upload: Upload;
  file: File;
  requested?: UploadRequested;
  sample?: { at: number; bytes: number };
}

const uploadInFlight = (u: Upload) => u.state === "requesting" || u.state === "uploading" || u.state === "paused";

/**
 * The uploads of this tab. It lives outside React, so an upload goes on while the
 * user moves around the dashboard, and the asset library shows it again on return.
 *
 * Per file: POST /api/asset/request-upload creates the asset and answers where its
 * file goes. Files up to 100 MiB are PUT in one request to the pre-signed `url`
 * (@uppy/aws-s3 with `signRequest` handing back that URL); larger ones go to
 * `tusEndpoint` with @uppy/tus, resumable. Uppy runs every uploader of an instance
 * on every file, so there are two instances, one per uploader, and the size decides
 * which one gets the file. Uppy loads on the first upload, not with the page.
 *
 * Uppy holds only files in flight. A finished or failed file leaves it: Uppy's
 * upload() would otherwise retry failed files whenever a new one is added, behind
 * the user's back. Retry adds the file again; tus finds its earlier upload URL by
 * fingerprint (file and endpoint) and continues from the server's offset.
 */
class UploadQueue {
  #entries = new Map<string, Entry>();
  #snapshot: readonly Upload[] = [];
  #listeners = new Set<() => void>();
  #uploaders?: Promise<{ direct: Uploader; resumable: Uploader }>;
  #direct?: Uploader;
  #resumable?: Uploader;
  #nextKey = 0;
  #guarding = false;

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  getSnapshot = () => this.#snapshot;

  add(files: File[]) {
    if (!this.#guarding) {
      window.addEventListener("beforeunload", this.#guardUnload);
      this.#guarding = true;
    }
    for (const file of files) {
      const key = String(++this.#nextKey);
      this.#entries.set(key, {
        file,
        upload: {
          key,
          name: file.name,
          size: file.size,
          resumable: file.size > RESUMABLE_ABOVE_BYTES,
          state: "requesting",
          bytesUploaded: 0,
        },
      });
      void this.#request(key);
    }
    this.#publish();
  }

  retry(key: string) {
    const entry = this.#entries.get(key);
    if (entry?.upload.state !== "failed") return;
    if (entry.requested) {
      void this.#send(key);
    } else {
      this.#update(key, { state: "requesting", errors: undefined });
      void this.#request(key);
    }
  }

  /** Only tus uploads pause: a single PUT would have to start over. */
  togglePause(key: string) {
    const entry = this.#entries.get(key);
    const assetId = entry?.upload.assetId;
    if (!entry?.upload.resumable || !assetId || !this.#resumable?.getFile(assetId)) return;
    const paused = this.#resumable.pauseResume(assetId);
    if (paused === undefined) return;
    entry.sample = undefined;
    this.#update(key, { state: paused ? "paused" : "uploading", bytesPerSecond: undefined });
  }

  /**
   * Takes an upload off the list. One still going is cancelled, and its asset deleted:
   * it would never get its video and only wait in the library.
   */
  remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const assetId = entry.upload.assetId;
    if (assetId && entry.upload.state !== "uploaded") {
      for (const uppy of [this.#direct, this.#resumable]) {
        if (uppy?.getFile(assetId)) uppy.removeFile(assetId);
      }
      deleteAsset(assetId).catch(() => {
        // Already gone, or the server is unreachable: the asset then stays "waiting" and can be deleted from its page.
      });
    }
    this.#publish();
  }

  clearUploaded() {
    for (const [key, entry] of this.#entries) {
      if (entry.upload.state === "uploaded") this.#entries.delete(key);
    }
    this.#publish();
  }

  async #request(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    let requested: UploadRequested;
    try {
      requested = await requestUpload(entry.file.name);
    } catch (error) {
      this.#update(key, { state: "failed", errors: error instanceof ApiRequestError ? error.messages : [String(error)] });
      return;
    }
    if (!this.#entries.has(key)) {
      // Cancelled while the asset was being created.
      deleteAsset(requested.asset.id).catch(() => {});
      return;
    }
    entry.requested = requested;
    this.#update(key, { assetId: requested.asset.id });
    await this.#send(key);
  }

  async #send(key: string) {
    const entry = this.#entries.get(key);
    if (!entry?.requested) return;
    const { asset, url, tusEndpoint } = entry.requested;
    entry.sample = undefined;
    this.#update(key, { state: "uploading", bytesUploaded: 0, bytesPerSecond: undefined, errors: undefined });

    let uploaders;
    try {
      uploaders = await this.#loadUploaders();
    } catch {
      this.#update(key, { state: "failed", errors: ["The uploader could not be loaded. Reload the page and try again."] });
      return;
    }
    if (!this.#entries.has(key)) return;

    const uppy = entry.upload.resumable ? uploaders.resumable : uploaders.direct;
    const filetype = entry.file.type || "application/octet-stream";
    uppy.addFile({
      name: entry.file.name,
      type: filetype,
      data: entry.file,
      meta: { assetId: asset.id, url, filename: entry.file.name, filetype },
    });
    if (entry.upload.resumable) uppy.setFileState(asset.id, { tus: { endpoint: tusEndpoint } });
    uppy.upload().catch((error: unknown) => this.#update(key, { state: "failed", errors: [String(error)] }));
  }

  #loadUploaders() {
    this.#uploaders ??= (async () => {
      const [{ default: Uppy }, { default: AwsS3 }, { default: Tus }] = await Promise.all([
        import("@uppy/core"),
        import("@uppy/aws-s3"),
        import("@uppy/tus"),
      ]);
      // Uppy names a file after its name, type, size and date; named after its asset
      // instead, the same file can be uploaded twice, as two assets.
      const create = () => new Uppy<UploadMeta, Body>({ onBeforeFileAdded: (file) => ({ ...file, id: file.meta.assetId }) });
      const direct: Uploader = create().use(AwsS3, {
        shouldUseMultipart: false,
        generateObjectKey: (file) => file.id,
        // The server has signed the URL already; the "key" is the asset id, which finds it.
        signRequest: ({ key }) => ({ url: direct.getFile(key).meta.url }),
      });
      const resumable = create().use(Tus, {
        chunkSize: TUS_CHUNK_BYTES,
        allowedMetaFields: ["filename", "filetype"],
        removeFingerprintOnSuccess: true,
      });
      for (const uppy of [direct, resumable]) this.#listen(uppy);
      this.#direct = direct;
      this.#resumable = resumable;
      return { direct, resumable };
    })().catch((error: unknown) => {
      this.#uploaders = undefined;
      throw error;
    });
    return this.#uploaders;
  }

  #listen(uppy: Uploader) {
    // The uploader plugin still listens for the file's removal while these events are
    // emitted (tus would terminate, i.e. DELETE, the finished upload): let go afterwards.
    const release = (id: string) => setTimeout(() => uppy.getFile(id) && uppy.removeFile(id));
    uppy.on("upload-progress", (file, progress) => {
      if (file) this.#progress(file.id, progress.bytesUploaded);
    });
    uppy.on("upload-success", (file) => {
      if (!file) return;
      release(file.id);
      this.#updateAsset(file.id, { state: "uploaded", bytesUploaded: file.size ?? 0, bytesPerSecond: undefined });
    });
    uppy.on("upload-error", (file, error, response) => {
      if (!file) return;
      release(file.id);
      this.#updateAsset(file.id, { state: "failed", bytesPerSecond: undefined, errors: uploadErrorMessages(error, response) });
    });
  }

  #progress(assetId: string, bytes: number) {
    const entry = this.#byAsset(assetId);
    if (entry?.upload.state !== "uploading") return;
    const now = performance.now();
    const patch: Partial<Upload> = { bytesUploaded: bytes };
    const sample = entry.sample;
    if (!sample) {
      entry.sample = { at: now, bytes };
    } else if (now - sample.at >= SPEED_SAMPLE_MS) {
      const dt = now - sample.at;
      const speed = Math.max(0, ((bytes - sample.bytes) * 1000) / dt);
      const previous = entry.upload.bytesPerSecond;
      patch.bytesPerSecond = previous === undefined ? speed : speed + (previous - speed) * 2 ** (-dt / SPEED_HALF_LIFE_MS);
      entry.sample = { at: now, bytes };
    }
    this.#update(entry.upload.key, patch);
  }

  #byAsset(assetId: string) {
    for (const entry of this.#entries.values()) if (entry.upload.assetId === assetId) return entry;
    return undefined;
  }

  #updateAsset(assetId: string, patch: Partial<Upload>) {
    const entry = this.#byAsset(assetId);
    if (entry) this.#update(entry.upload.key, patch);
  }

  #update(key: string, patch: Partial<Upload>) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.upload = { ...entry.upload, ...patch };
    this.#publish();
  }

  #publish() {
    this.#snapshot = [...this.#entries.values()].map((e) => e.upload).reverse();
    for (const listener of this.#listeners) listener();
  }

  /** Leaving the page would end the uploads: the browser asks first. */
  #guardUnload = (event: BeforeUnloadEvent) => {
    if (this.#snapshot.some(uploadInFlight)) event.preventDefault();
  };
}

/**
 * An upload's failure in the server's words when it gave some (`{"errors": [...]}`),
 * else its status, else a lost connection. S3 failures carry the response text as
 * `body`; tus failures come with the response's XHR.
 */
function uploadErrorMessages(error: { message: string }, response?: { status?: number; body?: unknown }): string[] {
  const status = response?.status ?? (error as { status?: number }).status;
  const text = (error as { body?: string }).body ?? responseText(response?.body);
  const fromServer = serverErrors(text);
  if (fromServer) return fromServer;
  if (!status || status < 100) {
    const network = (error as { isNetworkError?: boolean }).isNetworkError || /network/i.test(`${error.message} ${(error as Error).name}`);
    return [network ? "The connection to the server was lost. Retry to continue." : `The upload failed: ${error.message}`];
  }
  const detail = text && text.length <= 200 && !text.trimStart().startsWith("<") ? `: ${text.trim()}` : "";
  return [`The server refused the upload (${formatHttpStatus(status)})${detail}`];
}

function responseText(body: unknown): string | undefined {
  try {
    return (body as { xhr?: XMLHttpRequest } | undefined)?.xhr?.responseText || undefined;
  } catch {
    return undefined;
  }
}

function serverErrors(text: string | undefined): string[] | undefined {
  if (!text) return undefined;
  try {
    const errors = (JSON.parse(text) as { errors?: unknown }).errors;
    return Array.isArray(errors) && errors.length ? errors.map(String) : undefined;
  } catch {
    return undefined;
  }
}

export const uploadQueue = new UploadQueue();

const NONE: readonly Upload[] = [];

/** The uploads of this tab, newest first; re-renders as they move. */
export function useUploads(): readonly Upload[] {
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot, () => NONE);
}
