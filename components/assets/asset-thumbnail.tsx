"use client";

import { useState, type ReactNode } from "react";
import { cx } from "@/components/ui/cx";
import { AlertIcon, ClockIcon, FilmIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import type { Asset } from "@/lib/assets/schema";
import { formatTimecode } from "./asset-info";
import { ProgressBar } from "./progress-bar";

/**
 * A 16:9 still of the asset with what matters on top of it: the length once it is
 * ready, or how far processing is. The server makes the thumbnail as the asset becomes
 * ready, so it is asked for only then; before (or when processing failed) a neutral
 * placeholder stands in.
 */
export function AssetThumbnail({ asset, compact, className }: { asset: Asset; compact?: boolean; className?: string }) {
  const { phase, progress, errorMessage } = asset.status;
  const duration = asset.videoSpec?.duration;
  const moving = phase === "uploading" || phase === "processing";
  return (
    <div className={cx("relative aspect-video overflow-hidden bg-zinc-900 scheme-light", className)}>
      {phase === "ready" ? <Still playbackId={asset.playbackId} compact={compact} /> : <Placeholder />}

      {/* Lists give the length a column of its own. */}
      {phase === "ready" && duration !== undefined && !compact && (
        <span className="absolute right-1.5 bottom-1.5 rounded bg-zinc-950/75 px-1.5 py-0.5 text-xs font-medium text-white tabular-nums backdrop-blur-sm">
          {formatTimecode(duration)}
        </span>
      )}

      {phase !== "ready" && (
        <div
          className={cx(
            "absolute inset-0 flex flex-col items-center justify-center gap-1.5 text-center backdrop-blur-[1px]",
            phase === "failed" ? "bg-red-950/60 text-red-100" : "bg-zinc-950/55 text-white",
          )}
          title={phase === "failed" ? errorMessage : undefined}
        >
          {phase === "failed" ? (
            <AlertIcon className={compact ? "size-5" : "size-6"} />
          ) : moving ? (
            <Spinner className={compact ? "size-5" : "size-6"} />
          ) : (
            <ClockIcon className={compact ? "size-5" : "size-6"} />
          )}
          {!compact && (
            <span className="text-xs font-medium">
              {phase === "failed" ? "Could not process" : phase === "waiting" ? "Waiting for the video" : phase === "uploading" ? "Uploading" : "Processing"}
            </span>
          )}
        </div>
      )}

      {moving && <ProgressBar decorative value={progress} className="absolute inset-x-0 bottom-0 h-1 rounded-none bg-white/15" />}
    </div>
  );
}

/** Where there is no picture (yet): a dark field. */
function Placeholder({ children }: { children?: ReactNode }) {
  return (
    <div className="absolute inset-0 flex items-center justify-center bg-[radial-gradient(ellipse_at_center,var(--color-zinc-700),var(--color-zinc-900)_75%)] text-zinc-500">
      {children}
    </div>
  );
}

function Still({ playbackId, compact }: { playbackId: string; compact?: boolean }) {
  const [state, setState] = useState<"loading" | "shown" | "missing">("loading");
  return (
    <>
      {state !== "shown" && (
        <Placeholder>
          <FilmIcon className={compact ? "size-5" : "size-8"} />
        </Placeholder>
      )}
      {state !== "missing" && (
        // biome-ignore lint/performance/noImgElement: the app's own gated thumbnail; Next's optimizer would fetch it without the viewer's credential
        <img
          src={`/asset/${playbackId}/thumbnail.jpg`}
          alt=""
          loading="lazy"
          decoding="async"
          onLoad={() => setState("shown")}
          onError={() => setState("missing")}
          className={cx("absolute inset-0 size-full object-cover transition-opacity duration-300", state === "shown" ? "opacity-100" : "opacity-0")}
        />
      )}
    </>
  );
}
