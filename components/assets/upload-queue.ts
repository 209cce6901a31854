"use client";

import type { Body, Uppy, UppyFile } from "@uppy/core";
import { useSyncExternalStore } from "react";
import { ApiRequestError } from "@/lib/api/client";
import type { UploadRequested } from "@/lib/assets/schema";
import { deleteAsset, fetchAsset, requestUpload } from "@/lib/client/asset-hooks";
import { formatHttpStatus } from "@/lib/client/format";
import { formatBytes } from "./asset-info";

/** Up to this size a file goes up in one PUT to a pre-signed URL; beyond it, resumably over tus. */
export const RESUMABLE_ABOVE_BYTES = 100 * 1024 * 1024;
/** One tus PATCH at most: a dropped connection costs no more than this, and proxies see bounded bodies. */
const TUS_CHUNK_BYTES = 50 * 1024 * 1024;
/**
 * Uppy's recovery (@uppy/golden-retriever) keeps this tab's unfinished uploads in IndexedDB for
 * as long as their upload URLs work (UPLOAD_URL_TTL_S, a day by default).
 */
const RECOVERY_EXPIRES_MS = 24 * 60 * 60 * 1000;
/** What the tab keeping the recovery last wrote of it (Recovery): a page load restores from it first. */
const RECOVERY_KEY = "castline.uploads.recovery";
/** How long a restore may take before the uploaders are used all the same (a net: IndexedDB answers in milliseconds). */
const RESTORE_WAIT_MS = 10_000;
/** How often the time of an uploader's last change is written down while its files move. */
const RECOVERY_NOTE_MS = 60_000;
/** Speed is measured over at least this long and smoothed (half-life), so the number can be read. */
const SPEED_SAMPLE_MS = 500;
const SPEED_HALF_LIFE_MS = 3_000;

/** `interrupted`: restored after a reload or a crash of the tab, waiting for its file to be chosen again. */
export type UploadState = "requesting" | "uploading" | "paused" | "interrupted" | "uploaded" | "failed";

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

type UploadMeta = { assetId: string; url: string; filename: string; filetype: string; lastModified: string };
type Uploader = Uppy<UploadMeta, Body>;
type UploaderName = "direct" | "resumable";

/** What tells a file chosen again from another one: all that is left of it after a reload. */
interface FileIdentity {
  name: string;
  size: number;
  lastModified: string;
}

const identityOf = (file: File): FileIdentity => ({ name: file.name, size: file.size, lastModified: String(file.lastModified) });
const sameFile = (a: FileIdentity, b: FileIdentity) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

interface Entry {
  upload: Upload;
  identity: FileIdentity;
  /** Unset for an upload restored without its bytes, until its file is chosen again. */
  file?: File;
  requested?: UploadRequested;
  sample?: { at: number; bytes: number };
}

const uploadInFlight = (u: Upload) => u.state === "requesting" || u.state === "uploading" || u.state === "paused";
const uploaderOf = (u: Upload): UploaderName => (u.resumable ? "resumable" : "direct");

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
 *
 * Uploads outlive the tab: @uppy/golden-retriever keeps each instance's unfinished files
 * (their asset, upload URLs, tus upload URL and progress; the bytes of files up to 10 MiB)
 * in IndexedDB. After a reload or a crash, restore() brings them back: a file whose bytes
 * were kept goes on by itself, the others wait ("interrupted") until the same file is
 * chosen again, anywhere in the dashboard, and then continue from the server's offset
 * into the same asset.
 */
class UploadQueue {
  #entries = new Map<string, Entry>();
  #snapshot: readonly Upload[] = [];
  #listeners = new Set<() => void>();
  #uploaders?: Promise<Record<UploaderName, Uploader>>;
  #direct?: Uploader;
  #resumable?: Uploader;
  #nextKey = 0;
  #guarding = false;
  /** This tab keeps the uploads' recovery (keepRecovery). */
  #keeper = false;
  #noted: Recovery = { changedAt: {}, unfinished: [] };

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  getSnapshot = () => this.#snapshot;

  /** Brings back the uploads an earlier page of this browser left unfinished (Uppy loads only if there are some). */
  restore() {
    if (readRecovery().unfinished.length) this.#loadUploaders().catch(() => {});
  }

  add(files: File[]) {
    this.#guardUnload();
    for (const file of files) {
      // The file of an interrupted upload continues it, into its asset.
      const interrupted = [...this.#entries.values()].find((e) => e.upload.state === "interrupted" && !e.file && sameFile(e.identity, identityOf(file)));
      if (interrupted) {
        this.resumeWith(interrupted.upload.key, file);
        continue;
      }
      const key = this.#newKey();
      this.#entries.set(key, {
        file,
        identity: identityOf(file),
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

  /** An interrupted upload's file, chosen again: the upload goes on from where the server has it. */
  resumeWith(key: string, file: File) {
    const entry = this.#entries.get(key);
    if (entry?.upload.state !== "interrupted" || !entry.upload.assetId) return;
    if (!sameFile(entry.identity, identityOf(file))) {
      this.#update(key, {
        errors: [`${file.name} is not the file this upload started with: choose ${entry.upload.name} (${formatBytes(entry.upload.size)}) again.`],
      });
      return;
    }
    this.#guardUnload();
    entry.file = file;
    const uppy = uploaderOf(entry.upload) === "resumable" ? this.#resumable : this.#direct;
    const restored = uppy?.getFile(entry.upload.assetId);
    if (!uppy || !restored) return;
    // Uppy puts it in place of the restored file (onBeforeFileAdded), which keeps the tus upload's URL.
    uppy.addFile({ name: file.name, type: file.type || "application/octet-stream", data: file, meta: restored.meta });
    this.#continue(key);
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
   * Takes an upload off the list. One still going (or interrupted) is cancelled, and its asset
   * deleted: it would never get its video and only wait in the library.
   */
  remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#drop(key);
    const assetId = entry.upload.assetId;
    if (assetId && entry.upload.state !== "uploaded") {
      deleteAsset(assetId).catch(() => {
        // Already gone, or the server is unreachable: the asset then stays "waiting" and can be deleted from its page.
      });
    }
  }

  /** The asset was deleted elsewhere (its page): its upload, if this tab has one, goes too. */
  forgetAsset(assetId: string) {
    const entry = this.#byAsset(assetId);
    if (entry) this.#drop(entry.upload.key);
  }

  #drop(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const assetId = entry.upload.assetId;
    if (assetId && entry.upload.state !== "uploaded") {
      for (const uppy of [this.#direct, this.#resumable]) {
        if (uppy?.getFile(assetId)) uppy.removeFile(assetId);
      }
    }
    this.#publish();
  }

  clearUploaded() {
    for (const [key, entry] of this.#entries) {
      if (entry.upload.state === "uploaded") this.#entries.delete(key);
    }
    this.#publish();
  }

  #newKey() {
    return String(++this.#nextKey);
  }

  async #request(key: string) {
    const entry = this.#entries.get(key);
    if (!entry?.file) return;
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
    if (!entry?.requested || !entry.file) return;
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

    const uppy = uploaders[uploaderOf(entry.upload)];
    const filetype = entry.file.type || "application/octet-stream";
    uppy.addFile({
      name: entry.file.name,
      type: filetype,
      data: entry.file,
      meta: { assetId: asset.id, url, filename: entry.file.name, filetype, lastModified: entry.identity.lastModified },
    });
    if (entry.upload.resumable) uppy.setFileState(asset.id, { tus: { endpoint: tusEndpoint } });
    uppy.upload().catch((error: unknown) => this.#update(key, { state: "failed", errors: [String(error)] }));
  }

  /** An upload Uppy knows (with its bytes) started again: tus asks the server's offset first, a PUT starts over. */
  #continue(key: string) {
    const entry = this.#entries.get(key);
    const assetId = entry?.upload.assetId;
    const uppy = entry && (uploaderOf(entry.upload) === "resumable" ? this.#resumable : this.#direct);
    if (!entry || !assetId || !uppy?.getFile(assetId)) return;
    entry.sample = undefined;
    this.#update(key, { state: "uploading", bytesPerSecond: undefined, errors: undefined });
    uppy.retryUpload(assetId).catch((error: unknown) => this.#update(key, { state: "failed", errors: [String(error)] }));
  }

  #loadUploaders() {
    this.#uploaders ??= (async () => {
      const [{ default: Uppy }, { default: AwsS3 }, { default: Tus }, { default: GoldenRetriever }, keeper] = await Promise.all([
        import("@uppy/core"),
        import("@uppy/aws-s3"),
        import("@uppy/tus"),
        import("@uppy/golden-retriever"),
        keepRecovery(),
      ]);
      this.#noted = readRecovery();
      this.#keeper = keeper;
      // Uppy names a file after its name, type, size and date; named after its asset
      // instead, the same file can be uploaded twice, as two assets. A file chosen again
      // for an upload restored without its bytes takes the restored file's place.
      const create = (id: UploaderName) => {
        const uppy = new Uppy<UploadMeta, Body>({
          id: `castline-${id}`,
          onBeforeFileAdded: (file, files) => {
            const restored = files[file.meta.assetId];
            return (restored?.isGhost ? { ...restored, isGhost: false, data: file.data } : { ...file, id: file.meta.assetId }) as typeof file;
          },
        });
        return keeper ? uppy.use(GoldenRetriever, { expires: RECOVERY_EXPIRES_MS }) : uppy;
      };
      const direct: Uploader = create("direct").use(AwsS3, {
        shouldUseMultipart: false,
        generateObjectKey: (file) => file.id,
        // The server has signed the URL already; the "key" is the asset id, which finds it.
        signRequest: ({ key }) => ({ url: direct.getFile(key).meta.url }),
      });
      const resumable = create("resumable").use(Tus, {
        chunkSize: TUS_CHUNK_BYTES,
        allowedMetaFields: ["filename", "filetype"],
        removeFingerprintOnSuccess: true,
      });
      const uploaders = { direct, resumable };
      // The plugin restores as it installs, and replaces Uppy's files when it does (with none, if
      // none were left): an uploader it holds a record of is used only once restored.
      const { changedAt } = this.#noted;
      const restored = Object.entries(uploaders).map(([name, uppy]) => {
        const done = new Promise<void>((resolve) => {
          uppy.on("restored", () => {
            this.#adopt(name as UploaderName, uppy);
            resolve();
          });
        });
        const recorded = Date.now() - (changedAt[name as UploaderName] ?? 0) < RECOVERY_EXPIRES_MS;
        return keeper && recorded ? Promise.race([done, new Promise((r) => setTimeout(r, RESTORE_WAIT_MS))]) : undefined;
      });
      for (const uppy of [direct, resumable]) this.#listen(uppy);
      this.#direct = direct;
      this.#resumable = resumable;
      await Promise.all(restored);
      this.#publish();
      return uploaders;
    })().catch((error: unknown) => {
      this.#uploaders = undefined;
      throw error;
    });
    return this.#uploaders;
  }

  /**
   * Files Uppy restored: each becomes an upload of this tab again. Uppy's batches are not
   * resumed as they were: each file is started on its own, as this queue does.
   */
  #adopt(name: UploaderName, uppy: Uploader) {
    uppy.setState({ currentUploads: {} });
    for (const file of uppy.getFiles()) {
      if (file.progress.uploadComplete) {
        uppy.removeFile(file.id);
        continue;
      }
      if (this.#byAsset(file.id)) continue;
      const key = this.#newKey();
      this.#entries.set(key, {
        identity: { name: file.name ?? "", size: file.size ?? 0, lastModified: file.meta.lastModified },
        file: file.isGhost ? undefined : (file.data as File),
        upload: {
          key,
          name: file.name ?? file.meta.filename,
          size: file.size ?? 0,
          resumable: name === "resumable",
          state: "interrupted",
          bytesUploaded: restoredBytes(file),
          assetId: file.id,
        },
      });
      if (!file.isGhost) this.#continue(key);
      else void this.#settleIfFinished(uppy, file.id);
    }
    this.#guardUnload();
    this.#publish();
  }

  /**
   * A restored upload whose asset has its file already: the page was left between the last
   * byte and the recovery noting the end (it notes at intervals). It finished: shown so, not as
   * stopped, and nothing asks for its file again.
   */
  async #settleIfFinished(uppy: Uploader, assetId: string) {
    const asset = await fetchAsset(assetId).catch(() => undefined);
    const phase = asset?.status.phase;
    if (!phase || phase === "waiting" || phase === "uploading") return;
    const entry = this.#byAsset(assetId);
    if (entry?.upload.state !== "interrupted") return;
    if (uppy.getFile(assetId)) uppy.removeFile(assetId);
    this.#updateAsset(assetId, { state: "uploaded", bytesUploaded: entry.upload.size });
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
    if (this.#keeper) this.#noteRecovery();
    for (const listener of this.#listeners) listener();
  }

  /** Writes down what Uppy's recovery holds (only once restored: a restore reads it first). */
  #noteRecovery() {
    const now = Date.now();
    const names = (uploads: readonly Upload[]) => [...new Set(uploads.map(uploaderOf))].sort();
    const withAsset = this.#snapshot.filter((u) => u.assetId);
    const noted: Recovery = {
      changedAt: { ...this.#noted.changedAt },
      unfinished: names(withAsset.filter((u) => u.state !== "uploaded")),
    };
    for (const name of names(withAsset)) {
      if (now - (noted.changedAt[name] ?? 0) >= RECOVERY_NOTE_MS) noted.changedAt[name] = now;
    }
    if (JSON.stringify(noted) === JSON.stringify(this.#noted)) return;
    this.#noted = noted;
    writeRecovery(noted);
  }

  #guardUnload() {
    if (this.#guarding) return;
    window.addEventListener("beforeunload", this.#confirmUnload);
    this.#guarding = true;
  }

  /** Leaving the page pauses the uploads until their files are chosen again: the browser asks first. */
  #confirmUnload = (event: BeforeUnloadEvent) => {
    if (this.#snapshot.some(uploadInFlight)) event.preventDefault();
  };
}

/** What a restored file had sent: tus's offset as Uppy last saw it. */
function restoredBytes(file: UppyFile<UploadMeta, Body>): number {
  const bytes = file.progress.bytesUploaded;
  return typeof bytes === "number" ? bytes : 0;
}

/**
 * What Uppy's recovery holds, as this queue knows it: when each uploader's files last changed
 * (the plugin keeps a record of them for a day from then), and which uploaders have files
 * unfinished (a page load restores those).
 */
interface Recovery {
  changedAt: Partial<Record<UploaderName, number>>;
  unfinished: UploaderName[];
}

function readRecovery(): Recovery {
  try {
    const value = JSON.parse(localStorage.getItem(RECOVERY_KEY) ?? "{}") as Partial<Recovery>;
    return { changedAt: value.changedAt ?? {}, unfinished: Array.isArray(value.unfinished) ? value.unfinished : [] };
  } catch {
    return { changedAt: {}, unfinished: [] };
  }
}

function writeRecovery(recovery: Recovery) {
  try {
    localStorage.setItem(RECOVERY_KEY, JSON.stringify(recovery));
  } catch {
    // Storage refused (private mode, quota): a reload then forgets the uploads, as before.
  }
}

/**
 * Uppy's recovery keeps one record per uploader, so one tab at a time keeps it: the first
 * that uploads, as long as it is open (a Web Lock, released when the tab goes, a reload
 * included). Uploads from another tab meanwhile work, without recovery.
 */
function keepRecovery(): Promise<boolean> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) return Promise.resolve(true);
  return new Promise((resolve) => {
    locks
      .request("castline-upload-recovery", { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock ? new Promise<never>(() => {}) : undefined;
      })
      .catch(() => resolve(true));
  });
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
