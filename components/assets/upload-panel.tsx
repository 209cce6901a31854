"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type DragEvent, type ReactNode, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { AlertIcon, CheckIcon, FilmIcon, LinkIcon, PauseIcon, PlayIcon, ResendIcon, UploadIcon, XIcon } from "@/components/ui/icons";
import { formatDuration } from "@/lib/client/format";
import { useAssetsById, useRefreshAssetsOn } from "@/lib/client/asset-hooks";
import type { Asset } from "@/lib/assets/schema";
import { VIDEO_FILE_EXTENSIONS } from "@/lib/av/containers";
import { formatBytes, formatSpeed, percent } from "./asset-info";
import { AssetStatusBadge } from "./asset-status";
import { ProgressBar } from "./progress-bar";
import { RESUMABLE_ABOVE_BYTES, uploadQueue, useUploads, type Upload } from "./upload-queue";

/** What the picker offers: any video. Codecs are the server's call: it fails an asset it cannot use, and says why. */
const ACCEPT = ["video/*", ...VIDEO_FILE_EXTENSIONS].join(",");
const isVideo = (file: File) => file.type.startsWith("video/") || VIDEO_FILE_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext));

/**
 * Where files come in: dropped on it or picked with its input (which `inputRef` lets
 * other buttons open). Large and inviting while the library is empty, a slim band after.
 */
export function UploadDropZone({ inputRef, hero, onImport }: { inputRef: RefObject<HTMLInputElement | null>; hero?: boolean; onImport: () => void }) {
  const [dragging, setDragging] = useState(false);
  const [skipped, setSkipped] = useState<string[]>([]);
  // dragenter/dragleave fire for every child crossed: count them to know when the pointer really left.
  const depth = useRef(0);

  const take = (files: File[]) => {
    const videos = files.filter(isVideo);
    setSkipped(files.filter((f) => !isVideo(f)).map((f) => f.name));
    if (videos.length) uploadQueue.add(videos);
  };

  const dragProps = {
    onDragEnter: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes("Files")) return;
      e.preventDefault();
      depth.current++;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes("Files")) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      take([...e.dataTransfer.files]);
    },
  };

  const browse = () => inputRef.current?.click();
  const input = (
    <input
      ref={inputRef}
      type="file"
      accept={ACCEPT}
      multiple
      hidden
      data-testid="asset-file-input"
      onChange={(e) => {
        take([...(e.target.files ?? [])]);
        // The same file can be picked again, e.g. to upload it once more.
        e.target.value = "";
      }}
    />
  );
  const skippedNote = skipped.length > 0 && (
    <p role="alert" className="mt-3 flex items-center justify-center gap-1.5 text-xs text-amber-800">
      <AlertIcon className="size-3.5 shrink-0" />
      Not a video, so not uploaded: {skipped.join(", ")}
    </p>
  );

  if (hero) {
    return (
      <div
        {...dragProps}
        className={cx(
          "flex flex-col items-center rounded-xl border-2 border-dashed px-6 py-14 text-center transition-colors",
          dragging ? "border-indigo-500 bg-indigo-50/60" : "border-zinc-300 bg-white",
        )}
      >
        {input}
        <div className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600 ring-8 ring-indigo-50/50">
          <UploadIcon className="size-6" />
        </div>
        <h3 className="mt-4 text-base font-semibold text-zinc-900">{dragging ? "Drop to upload" : "Upload your first video"}</h3>
        <p className="mt-1 max-w-md text-sm text-zinc-500">
          Drag video files here, or choose them from your computer. MP4 with H.264 video and AAC audio works best. Each video gets a player link, an embed code
          and a download.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Button variant="primary" onClick={browse}>
            <UploadIcon /> Choose videos
          </Button>
          <Button onClick={onImport}>
            <LinkIcon /> Import from URL
          </Button>
        </div>
        <p className="mt-4 text-xs text-zinc-400">
          Files over {formatBytes(RESUMABLE_ABOVE_BYTES)} upload in resumable chunks: pause them, or pick up after a dropped connection.
        </p>
        {skippedNote}
      </div>
    );
  }

  return (
    <div
      {...dragProps}
      className={cx(
        "mb-6 rounded-xl border border-dashed px-4 py-3.5 transition-colors",
        dragging ? "border-indigo-500 bg-indigo-50/70" : "border-zinc-300 bg-white/60 hover:border-zinc-400",
      )}
    >
      {input}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className={cx("flex size-8 items-center justify-center rounded-lg", dragging ? "bg-indigo-600 text-white" : "bg-indigo-50 text-indigo-600")}>
          <UploadIcon />
        </span>
        <span className="text-zinc-700">
          {dragging ? (
            <strong className="font-medium text-indigo-700">Drop to upload</strong>
          ) : (
            <>
              Drop videos here to upload, or{" "}
              <button type="button" onClick={browse} className="font-medium text-indigo-600 hover:text-indigo-500">
                choose files
              </button>
            </>
          )}
        </span>
        <span className="text-xs text-zinc-400 sm:ml-auto">MP4 · H.264 video and AAC audio work best</span>
      </div>
      {skippedNote}
    </div>
  );
}

/**
 * Where an upload stands for its owner: its transfer while the file goes up, then what
 * the server makes of the file (a file that goes up fine can still fail processing).
 */
type Stage = "requesting" | "uploading" | "paused" | "interrupted" | "processing" | "ready" | "failed";

function stageOf(upload: Upload, asset: Asset | undefined): Stage {
  if (upload.state !== "uploaded") return upload.state;
  const phase = asset?.status.phase;
  return phase === "ready" ? "ready" : phase === "failed" ? "failed" : "processing";
}

/** This tab's uploads, newest first, from the request for an upload URL until the asset is ready. */
export function UploadList() {
  const uploads = useUploads();
  // Uploads a reload or a crashed tab left unfinished come back here.
  useEffect(() => uploadQueue.restore(), []);
  useRefreshAssetsOn(uploads.map((u) => `${u.assetId}:${u.state}`).join());
  const assets = useAssetsById(uploads.flatMap((u) => (u.state === "uploaded" && u.assetId ? [u.assetId] : [])));
  if (uploads.length === 0) return null;

  const stages = uploads.map((u) => stageOf(u, u.assetId ? assets.get(u.assetId) : undefined));
  const count = (...of: Stage[]) => stages.filter((stage) => of.includes(stage)).length;
  const summary = [
    [count("requesting", "uploading", "paused"), "uploading"],
    [count("interrupted"), "interrupted"],
    [count("processing"), "processing"],
    [count("failed"), "failed"],
    [count("ready"), "ready"],
  ]
    .filter(([n]) => n)
    .map(([n, label]) => `${n} ${label}`)
    .join(" · ");
  const uploaded = uploads.some((u) => u.state === "uploaded");

  return (
    <Card className="mb-6 overflow-hidden">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-5 py-3">
        <div className="flex items-baseline gap-2">
          <h2 className="text-[15px] font-semibold text-zinc-900">Uploads</h2>
          <span className="text-xs text-zinc-500">{summary}</span>
        </div>
        {uploaded && (
          <Button variant="ghost" size="sm" onClick={() => uploadQueue.clearUploaded()}>
            Clear uploaded
          </Button>
        )}
      </div>
      <ul aria-label="Uploads" className="divide-y divide-zinc-100">
        {uploads.map((upload, i) => (
          <UploadRow key={upload.key} upload={upload} stage={stages[i]} asset={upload.assetId ? assets.get(upload.assetId) : undefined} />
        ))}
      </ul>
    </Card>
  );
}

const STAGES: Record<Stage, { tone: "indigo" | "amber" | "green" | "red"; label: string }> = {
  requesting: { tone: "indigo", label: "Uploading" },
  uploading: { tone: "indigo", label: "Uploading" },
  paused: { tone: "amber", label: "Paused" },
  interrupted: { tone: "amber", label: "Interrupted" },
  processing: { tone: "indigo", label: "Processing" },
  ready: { tone: "green", label: "Ready" },
  failed: { tone: "red", label: "Failed" },
};

function UploadRow({ upload, stage, asset }: { upload: Upload; stage: Stage; asset: Asset | undefined }) {
  const { key, name, size, state, bytesUploaded, bytesPerSecond, resumable } = upload;
  const fraction = state === "uploaded" ? 1 : size > 0 ? bytesUploaded / size : 0;
  const remaining = bytesPerSecond ? (size - bytesUploaded) / bytesPerSecond : undefined;
  const { tone, label } = STAGES[stage];

  return (
    <li data-testid="upload-row" data-state={state} className="flex gap-3.5 px-5 py-4">
      <span
        role="img"
        aria-label={label}
        className={cx(
          "mt-0.5 hidden size-10 shrink-0 items-center justify-center rounded-lg sm:flex",
          tone === "red" ? "bg-red-50 text-red-600" : tone === "green" ? "bg-emerald-50 text-emerald-600" : "bg-indigo-50 text-indigo-600",
        )}
      >
        {stage === "failed" ? <AlertIcon className="size-5" /> : stage === "ready" ? <CheckIcon className="size-5" /> : <FilmIcon className="size-5" />}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-zinc-900" title={name}>
              {name}
            </p>
            <p className="text-xs text-zinc-500">
              {formatBytes(size)} · {resumable ? "resumable upload" : "single upload"}
            </p>
          </div>
          <div className="-mr-1.5 flex shrink-0 items-center gap-0.5">
            {resumable && (state === "uploading" || state === "paused") && (
              <RowAction label={state === "paused" ? `Resume upload of ${name}` : `Pause upload of ${name}`} onClick={() => uploadQueue.togglePause(key)}>
                {state === "paused" ? <PlayIcon /> : <PauseIcon />}
              </RowAction>
            )}
            {state === "failed" && (
              <Button size="sm" variant="ghost" onClick={() => uploadQueue.retry(key)}>
                <ResendIcon /> Retry
              </Button>
            )}
            {state === "interrupted" && <ChooseAgain upload={upload} />}
            <RowAction label={state === "uploaded" ? `Remove ${name} from the list` : `Cancel upload of ${name}`} onClick={() => uploadQueue.remove(key)}>
              <XIcon />
            </RowAction>
          </div>
        </div>

        <ProgressBar value={fraction} tone={tone} label={`Upload of ${name}`} className="mt-2.5" />

        <div className="mt-1.5 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-xs text-zinc-500 tabular-nums">
          <span>
            {state === "requesting"
              ? "Preparing the upload…"
              : state === "uploaded"
                ? "Uploaded"
                : state === "interrupted"
                  ? `Stopped at ${percent(fraction)}% · choose the file again to continue`
                  : `${percent(fraction)}% · ${formatBytes(bytesUploaded)} of ${formatBytes(size)}${state === "paused" ? " · paused" : ""}`}
          </span>
          {state === "uploading" && bytesPerSecond !== undefined && (
            <span>
              {formatSpeed(bytesPerSecond)}
              {remaining !== undefined && remaining < 86_400 && ` · ${formatDuration(remaining)} left`}
            </span>
          )}
          {asset && state === "uploaded" && <ProcessingStatus asset={asset} />}
        </div>

        {(state === "failed" || state === "interrupted") && upload.errors && (
          <ul role="alert" className="mt-2 space-y-0.5 text-sm text-red-700">
            {upload.errors.map((message, i) => (
              <li key={i}>{capitalise(message)}</li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

/** After the upload the server processes the video; the row follows it to ready (or why it failed). */
function ProcessingStatus({ asset }: { asset: Asset }) {
  const { phase, errorMessage } = asset.status;
  return (
    <span className="flex min-w-0 items-center gap-2">
      <AssetStatusBadge status={asset.status} />
      {phase === "failed" && errorMessage && <span className="text-red-700">{capitalise(errorMessage)}</span>}
      <Link href={`/assets/${asset.id}`} className="font-medium text-indigo-600 hover:text-indigo-500">
        {phase === "ready" ? "Watch" : "Details"}
      </Link>
    </span>
  );
}

/**
 * Continues an upload interrupted by a reload: after one the browser no longer has the
 * file, so it has to be chosen again (the same file: same name, size and date).
 */
export function ChooseAgain({ upload, label = "Choose file", variant = "ghost" }: { upload: Upload; label?: string; variant?: "ghost" | "primary" }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="resume-file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) uploadQueue.resumeWith(upload.key, file);
          e.target.value = "";
        }}
      />
      <Button size="sm" variant={variant} onClick={() => input.current?.click()} aria-label={`${label}: ${upload.name}`}>
        <UploadIcon /> {label}
      </Button>
    </>
  );
}

function RowAction({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="ghost" size="sm" className="w-8 px-0" aria-label={label} title={label} onClick={onClick}>
      {children}
    </Button>
  );
}

/** The API writes its messages in lower case; on their own they read better capitalised. */
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
